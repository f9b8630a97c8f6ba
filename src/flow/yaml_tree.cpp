#include "flow/yaml_tree.h"

#include <yaml.h>

#include <charconv>
#include <map>

#include "core/file_text.h"

namespace yard {

// Builds a tree from libyaml's events: each open sequence or map collects its children's
// indices, which join kids_ in one run when it ends.
struct YamlBuilder {
  YamlTree& tree;
  std::vector<std::vector<std::uint32_t>> open;  // the children of each open container
  std::vector<std::uint32_t> open_nodes;
  std::map<std::string, std::uint32_t, std::less<>> anchors;

  std::uint32_t add(YamlTree::Kind kind, const yaml_event_t& e) {
    const auto index = static_cast<std::uint32_t>(tree.nodes_.size());
    tree.nodes_.push_back({kind, static_cast<std::uint32_t>(e.start_mark.line + 1), 0, 0});
    return index;
  }
  void attach(std::uint32_t index) {
    if (!open.empty()) open.back().push_back(index);
  }
  void anchor(const yaml_char_t* name, std::uint32_t index) {
    if (name) anchors[reinterpret_cast<const char*>(name)] = index;
  }

  // One event; an error's text when the document cannot be built.
  std::string take(const yaml_event_t& e) {
    switch (e.type) {
      case YAML_SCALAR_EVENT: {
        const std::uint32_t i = add(YamlTree::Kind::Scalar, e);
        auto& n = tree.nodes_[i];
        const auto* value = reinterpret_cast<const char*>(e.data.scalar.value);
        const std::size_t length = e.data.scalar.length;
        // A plain ~, null or nothing is YAML's null; quoted, it is that text.
        const bool plain = e.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        const std::string_view v(value, length);
        if (plain && (v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL")) n.kind = YamlTree::Kind::Null;
        if (tree.text_.size() + length > UINT32_MAX) return "the file is too large (more than 4 GiB of text)";
        n.first = static_cast<std::uint32_t>(tree.text_.size());
        n.count = static_cast<std::uint32_t>(length);
        tree.text_.append(value, length);
        anchor(e.data.scalar.anchor, i);
        attach(i);
        return {};
      }
      case YAML_SEQUENCE_START_EVENT:
      case YAML_MAPPING_START_EVENT: {
        const bool seq = e.type == YAML_SEQUENCE_START_EVENT;
        const std::uint32_t i = add(seq ? YamlTree::Kind::Sequence : YamlTree::Kind::Map, e);
        anchor(seq ? e.data.sequence_start.anchor : e.data.mapping_start.anchor, i);
        attach(i);
        open.emplace_back();
        open_nodes.push_back(i);
        return {};
      }
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT: {
        auto& n = tree.nodes_[open_nodes.back()];
        n.first = static_cast<std::uint32_t>(tree.kids_.size());
        n.count = static_cast<std::uint32_t>(open.back().size());
        tree.kids_.insert(tree.kids_.end(), open.back().begin(), open.back().end());
        open.pop_back();
        open_nodes.pop_back();
        return {};
      }
      case YAML_ALIAS_EVENT: {
        auto it = anchors.find(reinterpret_cast<const char*>(e.data.alias.anchor));
        if (it == anchors.end())
          return "line " + std::to_string(e.start_mark.line + 1) + ": alias *" +
                 reinterpret_cast<const char*>(e.data.alias.anchor) + " names no anchor";
        attach(it->second);
        return {};
      }
      default:
        return {};
    }
  }
};

Result<std::unique_ptr<YamlTree>> YamlTree::parse(std::string_view text, const std::string& source) {
  auto tree = std::make_unique<YamlTree>();
  tree->text_.reserve(text.size());
  YamlBuilder b{*tree, {}, {}, {}};
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) return err(source + ": cannot read YAML: out of memory");
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  std::string failure;
  int documents = 0;
  for (bool done = false; !done && failure.empty();) {
    yaml_event_t e;
    if (!yaml_parser_parse(&parser, &e)) {
      failure = source + ":" + std::to_string(parser.problem_mark.line + 1) + ": malformed YAML: " +
                (parser.problem ? parser.problem : "unreadable") +
                (parser.context ? std::string(" ") + parser.context : std::string());
      break;
    }
    done = e.type == YAML_STREAM_END_EVENT;
    if (e.type == YAML_DOCUMENT_START_EVENT && ++documents > 1)
      failure = source + ":" + std::to_string(e.start_mark.line + 1) + ": malformed YAML: a second document (---)";
    if (failure.empty())
      if (auto why = b.take(e); !why.empty()) failure = source + ": malformed YAML: " + why;
    yaml_event_delete(&e);
  }
  yaml_parser_delete(&parser);
  if (!failure.empty()) return err(failure);
  return tree;
}

Result<std::unique_ptr<YamlTree>> YamlTree::load(const std::string& path) {
  auto text = read_file(path);
  if (!text) return Error{text.failure()};
  return parse(*text, path);
}

bool YamlNode::is_null() const { return tree_ && tree_->nodes_[index_].kind == YamlTree::Kind::Null; }
bool YamlNode::is_scalar() const { return tree_ && tree_->nodes_[index_].kind == YamlTree::Kind::Scalar; }
bool YamlNode::is_sequence() const { return tree_ && tree_->nodes_[index_].kind == YamlTree::Kind::Sequence; }
bool YamlNode::is_map() const { return tree_ && tree_->nodes_[index_].kind == YamlTree::Kind::Map; }
int YamlNode::line() const { return tree_ ? static_cast<int>(tree_->nodes_[index_].line) : 0; }

std::size_t YamlNode::size() const {
  if (!is_sequence() && !is_map()) return 0;
  const auto& n = tree_->nodes_[index_];
  return is_map() ? n.count / 2 : n.count;
}

YamlNode YamlNode::child(std::size_t i) const {
  const auto& n = tree_->nodes_[index_];
  return YamlNode(tree_, tree_->kids_[n.first + i]);
}

YamlNode YamlNode::operator[](std::string_view key) const {
  if (!is_map()) return {};
  const auto& n = tree_->nodes_[index_];
  for (std::uint32_t i = 0; i + 1 < n.count; i += 2) {
    const YamlNode k(tree_, tree_->kids_[n.first + i]);
    if (k.is_scalar() && k.text() == key) return YamlNode(tree_, tree_->kids_[n.first + i + 1]);
  }
  return {};
}

std::vector<YamlNode> YamlNode::items() const {
  std::vector<YamlNode> out;
  if (!is_sequence() && !is_map()) return out;
  const auto& n = tree_->nodes_[index_];
  out.reserve(n.count);
  for (std::uint32_t i = 0; i < n.count; ++i) out.push_back(YamlNode(tree_, tree_->kids_[n.first + i]));
  return out;
}

std::string_view YamlNode::text() const {
  if (!tree_) return {};
  const auto& n = tree_->nodes_[index_];
  if (n.kind == YamlTree::Kind::Sequence || n.kind == YamlTree::Kind::Map)
    throw YamlValueError(line(), std::string("expected a value, not a ") + (is_map() ? "mapping" : "list"));
  return std::string_view(tree_->text_).substr(n.first, n.count);
}

int YamlNode::integer() const {
  const std::string_view t = text();
  int v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || t.empty())
    throw YamlValueError(line(), "expected a whole number, not '" + std::string(t) + "'");
  return v;
}

std::vector<std::string> YamlNode::strings() const {
  if (!is_sequence()) return {str()};
  std::vector<std::string> out;
  for (const auto& item : items()) out.push_back(item.str());
  return out;
}

}  // namespace yard
