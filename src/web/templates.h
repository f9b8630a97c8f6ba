// Templates: what a site admin offers people who never open a terminal. One YAML file per
// template in the templates directory (its name is the file's stem): a form of typed
// fields (ranges, choices, defaults, help text) and the job, or the workflow's steps, it
// makes. Users fill the form; they never see or change the rest. A field's value reaches
// the job as an environment variable named after it in capitals (COUNT), never through a
// shell, and as {name} inside the job's options (`cpus-per-task: "{threads}"`), so that
// the size class is computed from the inputs by the routes (the smallest that holds it).
//
//   title: Say hello
//   description: Writes the greeting COUNT times to result.txt
//   fields:
//     - {name: greeting, label: Greeting, type: text, default: hello}
//     - {name: count, label: How many times, type: integer, min: 1, max: 10, default: 3}
//   job:
//     options: {time: "0:05:00", cpus-per-task: "1"}
//     script: |
//       #!/bin/sh
//       for i in $(seq "$COUNT"); do echo "$GREETING"; done > result.txt
//
// A workflow has `steps:` instead of `job:`, each a job with a `name` and `needs:`.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"

namespace yard::web {

struct TemplateField {
  std::string name, label, type, help;  // type: integer, number, text, choice, file
  std::optional<double> min, max;
  std::vector<std::string> choices;
  nlohmann::json default_value;  // null: none (the field is required)
  std::size_t max_length = 1000;
};

struct TemplateStep {
  std::string name;
  std::vector<std::string> needs;
  std::map<std::string, std::string> options;  // yard submit's long flags, values with {field}
  std::vector<std::string> command;
  std::string script;
};

struct Template {
  std::string name, title, description, kind;  // kind: job or workflow
  std::vector<TemplateField> fields;
  std::vector<TemplateStep> steps;  // one for a job
};

// A bad value: the message and the field it names.
struct FieldError {
  std::string field, message;
};

// A step as filled in: yard submit's flags as words, its command or script, and the
// environment the values make.
struct FilledStep {
  std::string name;
  std::vector<int> needs;  // earlier steps, by index
  std::vector<std::string> flags;
  std::vector<std::string> command;
  std::string script;
  std::map<std::string, std::string> env;
};

// Every *.yaml of `dir`, sorted by name; a bad file is an error naming its line.
Result<std::vector<Template>> load_templates(const std::string& dir);
Result<Template> parse_template(const std::string& name, const std::string& text, const std::string& source);

// The templates of a directory, read again only when one of its files changed (by name,
// size and modification time): a request does not parse YAML.
class TemplateShelf {
 public:
  Result<std::vector<Template>> load(const std::string& dir);

 private:
  std::mutex mu_;
  std::string signature_;
  std::vector<Template> templates_;
};

// The template as the pages show it (no commands: only what a user fills).
nlohmann::json describe(const Template& t);

// The values checked against the fields (unknown names, types, ranges, choices; missing
// ones take their default), normalised; or the first field at fault.
std::variant<nlohmann::json, FieldError> check_values(const Template& t, const nlohmann::json& values);

// The steps with `values` (checked) put in; a file field's value is the name the file has
// in the run's directory.
std::vector<FilledStep> fill(const Template& t, const nlohmann::json& values);

}  // namespace yard::web
