#include "web/feed_fanout.h"

#include <algorithm>

namespace yard::web {

std::shared_ptr<FeedFanout::Subscription> FeedFanout::subscribe(const std::string& viewer, MaySee may_see,
                                                                 Render render) {
  std::lock_guard lock(mu_);
  auto& known = viewers_[viewer];
  if (!known.how) known.how = std::make_shared<const Viewer>(Viewer{std::move(may_see), std::move(render)});
  ++known.pages;
  ++pages_;
  return std::make_shared<Subscription>(*this, viewer, known.how);
}

void FeedFanout::unsubscribe(const std::string& viewer) {
  std::lock_guard lock(mu_);
  --pages_;
  auto it = viewers_.find(viewer);
  if (it != viewers_.end() && --it->second.pages == 0) viewers_.erase(it);
}

void FeedFanout::publish(std::int64_t upto, const std::vector<FeedPtr>& messages) {
  Batch batch;
  std::vector<std::pair<std::string, std::shared_ptr<const Viewer>>> viewers;
  {
    std::lock_guard lock(mu_);
    batch.after = published_;
    for (const auto& [key, watched] : viewers_) viewers.emplace_back(key, watched.how);
  }
  batch.upto = upto;
  // Rendered without the lock: the pages keep taking the batches before this one.
  static const auto nothing = std::make_shared<const std::string>();
  std::vector<FeedPtr> visible;
  for (const auto& [key, viewer] : viewers) {
    visible.clear();
    for (const auto& m : messages)
      if (viewer->may_see(*m)) visible.push_back(m);
    batch.texts[key] = visible.empty() ? nothing : std::make_shared<const std::string>(viewer->render(visible));
  }
  {
    std::lock_guard lock(mu_);
    // A page that subscribed while this was rendered has no text here: it renders it.
    batches_.push_back(std::move(batch));
    if (batches_.size() > kBatches) batches_.pop_front();
    published_ = upto;
  }
  published_cv_.notify_all();
}

void FeedFanout::publish_gap(std::int64_t upto) {
  {
    std::lock_guard lock(mu_);
    batches_.push_back(Batch{published_, upto, {}});
    if (batches_.size() > kBatches) batches_.pop_front();
    published_ = upto;
  }
  published_cv_.notify_all();
}

int FeedFanout::pages() {
  std::lock_guard lock(mu_);
  return pages_;
}

std::int64_t FeedFanout::published() {
  std::lock_guard lock(mu_);
  return published_;
}

FeedFanout::Taken FeedFanout::take(std::int64_t since, const std::string& viewer,
                                   std::chrono::steady_clock::time_point deadline,
                                   std::shared_ptr<const std::string>& text, std::int64_t& reached) {
  reached = since;
  std::vector<std::shared_ptr<const std::string>> parts;
  {
    std::unique_lock lock(mu_);
    while (true) {
      if (stopped_) return Taken::Nothing;
      if (published_ <= since) {
        if (published_cv_.wait_until(lock, deadline) == std::cv_status::timeout && published_ <= since)
          return Taken::Nothing;
        continue;
      }
      // Batches are in id order, each beginning where the one before it ended.
      auto first = std::partition_point(batches_.begin(), batches_.end(),
                                        [&](const Batch& b) { return b.after < since; });
      if (first == batches_.end() || first->after != since) return Taken::NotHere;
      parts.clear();
      for (auto b = first; b != batches_.end(); ++b) {
        auto it = b->texts.find(viewer);
        if (it == b->texts.end()) return Taken::NotHere;
        if (!it->second->empty()) parts.push_back(it->second);
      }
      reached = since = batches_.back().upto;
      if (!parts.empty()) break;
      // Nothing for this page: what came was someone else's; wait past it.
      if (std::chrono::steady_clock::now() >= deadline) return Taken::Nothing;
    }
  }
  if (parts.size() == 1) {
    text = std::move(parts.front());
  } else {
    std::string all;
    for (const auto& p : parts) all += *p;
    text = std::make_shared<const std::string>(std::move(all));
  }
  return Taken::Text;
}

void FeedFanout::stop() {
  {
    std::lock_guard lock(mu_);
    stopped_ = true;
  }
  published_cv_.notify_all();
}

}  // namespace yard::web
