#include "web/templates.h"
#include "web/template_keys.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>

#include "core/file_text.h"
#include "core/yaml_file.h"

namespace yard::web {
namespace {

namespace fs = std::filesystem;

bool good_name(const std::string& s) {
  if (s.empty() || s.size() > 64 || !std::islower(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Reads one step (`job:` or an element of `steps:`).
Result<TemplateStep> read_step(const YAML::Node& n, const std::string& source) {
  const std::string where = yaml_where(source, n) + ": ";
  if (!n.IsMap()) return err(where + "a job is a map (options, command or script)");
  TemplateStep step;
  for (const auto& kv : n) {
    const std::string key = kv.first.as<std::string>();
    const YAML::Node& v = kv.second;
    if (key == "name") {
      step.name = v.as<std::string>();
    } else if (key == "needs") {
      for (const auto& x : v) step.needs.push_back(x.as<std::string>());
    } else if (key == "options") {
      if (!v.IsMap()) return err(yaml_where(source, v) + ": options: a map of yard submit's long flags");
      for (const auto& o : v) step.options[o.first.as<std::string>()] = o.second.as<std::string>();
    } else if (key == "command") {
      if (!v.IsSequence()) return err(yaml_where(source, v) + ": command: a list of words");
      for (const auto& w : v) step.command.push_back(w.as<std::string>());
    } else if (key == "script") {
      step.script = v.as<std::string>();
    } else {
      return err(yaml_where(source, kv.first) + ": unknown key '" + key + "' (accepted: " +
                 setting_names(kTemplateStepKeys) + ")");
    }
  }
  if (step.command.empty() == step.script.empty()) return err(where + "give a command or a script (one of them)");
  return step;
}

Result<TemplateField> read_field(const YAML::Node& n, const std::string& source) {
  const std::string where = yaml_where(source, n) + ": ";
  TemplateField f;
  for (const auto& kv : n) {
    const std::string key = kv.first.as<std::string>();
    const YAML::Node& v = kv.second;
    if (key == "name") f.name = v.as<std::string>();
    else if (key == "label") f.label = v.as<std::string>();
    else if (key == "type") f.type = v.as<std::string>();
    else if (key == "help") f.help = v.as<std::string>();
    else if (key == "min") f.min = v.as<double>();
    else if (key == "max") f.max = v.as<double>();
    else if (key == "max_length") f.max_length = v.as<std::size_t>();
    else if (key == "choices") for (const auto& c : v) f.choices.push_back(c.as<std::string>());
    else if (key == "default") f.default_value = v.as<std::string>();
    else
      return err(yaml_where(source, kv.first) + ": unknown key '" + key + "' (accepted: " +
                 setting_names(kTemplateFieldKeys) + ")");
  }
  if (!good_name(f.name)) return err(where + "a field's name is lower-case letters, digits and _ ('" + f.name + "')");
  static const std::set<std::string> types = {"integer", "number", "text", "choice", "file"};
  if (!types.count(f.type)) return err(where + "field " + f.name + ": type '" + f.type +
                                       "' (accepted: integer, number, text, choice, file)");
  if (f.type == "choice" && f.choices.empty()) return err(where + "field " + f.name + ": a choice needs choices");
  if (f.label.empty()) f.label = f.name;
  // Defaults are written as text; the form gets them typed.
  if (!f.default_value.is_null() && (f.type == "integer" || f.type == "number")) {
    const std::string text = f.default_value.get<std::string>();
    try {
      f.default_value = f.type == "integer" ? nlohmann::json(std::stoll(text)) : nlohmann::json(std::stod(text));
    } catch (const std::exception&) {
      return err(where + "field " + f.name + ": default '" + text + "' is not a " + f.type);
    }
  }
  return f;
}

// A limit as a person writes it: 10, not 10.0.
std::string number_text(double x) {
  if (x == std::floor(x) && std::fabs(x) < 1e15) return std::to_string(static_cast<long long>(x));
  return nlohmann::json(x).dump();
}

// Replaces each {name} of `text` by the field's value.
std::string put_values(std::string text, const nlohmann::json& values) {
  for (const auto& [name, value] : values.items()) {
    const std::string word = "{" + name + "}";
    const std::string with = value.is_string() ? value.get<std::string>() : value.dump();
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + with.size()))
      text.replace(at, word.size(), with);
  }
  return text;
}

}  // namespace

Result<Template> parse_template(const std::string& name, const std::string& text, const std::string& source) {
  auto doc = parse_yaml(text, source);
  if (!doc) return doc.failure();
  Template t;
  t.name = name;
  t.kind = "job";
  try {
    if (!doc->IsMap()) return err(source + ": a template is a map (title, fields, job or steps)");
    for (const auto& kv : *doc) {
      const std::string key = kv.first.as<std::string>();
      const YAML::Node& v = kv.second;
      if (key == "title") {
        t.title = v.as<std::string>();
      } else if (key == "description") {
        t.description = v.as<std::string>();
      } else if (key == "fields") {
        for (const auto& f : v) {
          auto field = read_field(f, source);
          if (!field) return field.failure();
          t.fields.push_back(std::move(*field));
        }
      } else if (key == "job" || key == "steps") {
        if (!t.steps.empty()) return err(yaml_where(source, kv.first) + ": a template has a job or steps, not both");
        t.kind = key == "job" ? "job" : "workflow";
        if (key == "job") {
          auto step = read_step(v, source);
          if (!step) return step.failure();
          step->name = name;
          t.steps.push_back(std::move(*step));
        } else {
          for (const auto& s : v) {
            auto step = read_step(s, source);
            if (!step) return step.failure();
            t.steps.push_back(std::move(*step));
          }
        }
      } else {
        return err(yaml_where(source, kv.first) + ": unknown key '" + key + "' (accepted: " +
                   setting_names(kTemplateKeys) + ")");
      }
    }
  } catch (const YAML::Exception& e) {
    return err(yaml_error(source, e));
  }
  if (t.steps.empty()) return err(source + ": a template needs a job: or steps:");
  if (t.title.empty()) t.title = name;
  std::set<std::string> seen;
  for (const auto& f : t.fields)
    if (!seen.insert(f.name).second) return err(source + ": field " + f.name + " is given twice");
  std::set<std::string> steps;
  for (const auto& s : t.steps) {
    if (s.name.empty()) return err(source + ": every step has a name");
    for (const auto& need : s.needs)
      if (!steps.count(need)) return err(source + ": step " + s.name + " needs '" + need + "', not an earlier step");
    if (!steps.insert(s.name).second) return err(source + ": step " + s.name + " is given twice");
  }
  return t;
}

Result<std::vector<Template>> load_templates(const std::string& dir) {
  std::vector<Template> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    auto text = read_file(file.string());
    if (!text) return text.failure();
    const std::string name = file.stem().string();
    if (name.empty() || name.size() > 64 || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") != std::string::npos)
      return err(file.string() + ": a template's file name is lower-case letters, digits, - and _");
    auto t = parse_template(name, *text, file.string());
    if (!t) return t.failure();
    out.push_back(std::move(*t));
  }
  return out;
}

Result<std::vector<Template>> TemplateShelf::load(const std::string& dir) {
  std::string signature;
  std::error_code ec;
  std::vector<std::string> entries;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".yaml") continue;
    const auto size = fs::file_size(e.path(), ec);
    const auto mtime = fs::last_write_time(e.path(), ec).time_since_epoch().count();
    entries.push_back(e.path().filename().string() + ":" + std::to_string(size) + ":" + std::to_string(mtime));
  }
  std::sort(entries.begin(), entries.end());
  for (const auto& e : entries) signature += e + "/";
  std::lock_guard lock(mu_);
  if (signature == signature_ && !signature.empty()) return templates_;
  auto loaded = load_templates(dir);
  if (!loaded) return loaded.failure();
  signature_ = signature;
  templates_ = *loaded;
  return templates_;
}

nlohmann::json describe(const Template& t) {
  nlohmann::json fields = nlohmann::json::array();
  for (const auto& f : t.fields) {
    nlohmann::json j = {{"name", f.name}, {"label", f.label}, {"type", f.type}, {"help", f.help},
                        {"required", f.default_value.is_null()}};
    if (f.min) j["min"] = *f.min;
    if (f.max) j["max"] = *f.max;
    if (!f.choices.empty()) j["choices"] = f.choices;
    if (!f.default_value.is_null()) j["default"] = f.default_value;
    if (f.type == "text") j["max_length"] = f.max_length;
    fields.push_back(std::move(j));
  }
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : t.steps) steps.push_back({{"name", s.name}, {"needs", s.needs}});
  return {{"name", t.name}, {"title", t.title}, {"description", t.description}, {"kind", t.kind},
          {"fields", fields}, {"steps", steps}};
}

std::variant<nlohmann::json, FieldError> check_values(const Template& t, const nlohmann::json& values) {
  if (!values.is_object()) return FieldError{"values", "values: an object of the form's fields"};
  for (const auto& item : values.items()) {
    const std::string name = item.key();
    if (std::none_of(t.fields.begin(), t.fields.end(), [&](const TemplateField& f) { return f.name == name; }))
      return FieldError{name, "'" + name + "' is not a field of template " + t.name};
  }
  nlohmann::json out = nlohmann::json::object();
  for (const auto& f : t.fields) {
    nlohmann::json v = values.contains(f.name) ? values.at(f.name) : f.default_value;
    const std::string label = f.label + " (" + f.name + ")";
    if (v.is_null()) return FieldError{f.name, label + " is required"};
    if (f.type == "integer" || f.type == "number") {
      if (v.is_string()) {  // a form's text box
        try {
          std::size_t used = 0;
          const std::string text = v.get<std::string>();
          v = f.type == "integer" ? nlohmann::json(std::stoll(text, &used)) : nlohmann::json(std::stod(text, &used));
          if (used != text.size()) throw std::invalid_argument(text);
        } catch (const std::exception&) {
          return FieldError{f.name, label + ": '" + values.at(f.name).get<std::string>() + "' is not " +
                                       (f.type == "integer" ? "an integer" : "a number")};
        }
      }
      if (f.type == "integer" && !v.is_number_integer())
        return FieldError{f.name, label + ": a whole number, not " + v.dump()};
      if (!v.is_number() || !std::isfinite(v.get<double>()))
        return FieldError{f.name, label + ": a number, not " + v.dump()};
      const double x = v.get<double>();
      if (f.min && x < *f.min) return FieldError{f.name, label + ": at least " + number_text(*f.min)};
      if (f.max && x > *f.max) return FieldError{f.name, label + ": at most " + number_text(*f.max)};
    } else {
      if (!v.is_string()) return FieldError{f.name, label + ": text, not " + v.dump()};
      const std::string s = v.get<std::string>();
      if (s.size() > f.max_length)
        return FieldError{f.name, label + ": at most " + std::to_string(f.max_length) + " characters"};
      if (s.find('\0') != std::string::npos) return FieldError{f.name, label + ": a NUL byte"};
      if (f.type == "choice" && std::find(f.choices.begin(), f.choices.end(), s) == f.choices.end())
        return FieldError{f.name, label + ": '" + s + "' is not one of the choices"};
      if (f.type == "file" && (s.empty() || s[0] == '.' || s.find('/') != std::string::npos))
        return FieldError{f.name, label + ": '" + s + "' is not the name of an uploaded file"};
    }
    out[f.name] = v;
  }
  return out;
}

std::vector<FilledStep> fill(const Template& t, const nlohmann::json& values) {
  std::vector<FilledStep> out;
  std::map<std::string, int> index;
  for (const auto& s : t.steps) {
    FilledStep step;
    step.name = s.name;
    for (const auto& need : s.needs) step.needs.push_back(index.at(need));
    for (const auto& [flag, value] : s.options) step.flags.push_back("--" + flag + "=" + put_values(value, values));
    step.command = s.command;
    for (auto& word : step.command) word = put_values(word, values);
    step.script = s.script;
    for (const auto& [name, value] : values.items())
      step.env[upper(name)] = value.is_string() ? value.get<std::string>() : value.dump();
    index[s.name] = static_cast<int>(out.size());
    out.push_back(std::move(step));
  }
  return out;
}

}  // namespace yard::web
