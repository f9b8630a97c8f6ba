// A web template's keys, each with what it means (core/setting_doc.h): the reader
// (templates.cpp) refuses a key that is not in its table, and the reference
// (docs/reference/settings.md) is written from the same tables.
#pragma once

#include "core/setting_doc.h"

namespace yard::web {

inline constexpr SettingDoc kTemplateKeys[] = {
    {"title", "what the form is called", "the file's name"},
    {"description", "a sentence under it", ""},
    {"fields", "the form's fields, a list (below)", ""},
    {"job", "the job the form starts (below)", ""},
    {"steps", "a workflow instead of job: a list of jobs (below), each with a name and needs", ""},
};

inline constexpr SettingDoc kTemplateFieldKeys[] = {
    {"name", "required: lower-case letters, digits and _; the job sees $NAME and {name}", ""},
    {"label", "what the form shows", "the name"},
    {"type", "integer, number, text, choice (with choices) or file (an uploaded file's name)", ""},
    {"help", "a sentence under the field", ""},
    {"min", "the least a number may be", ""},
    {"max", "the most a number may be", ""},
    {"max_length", "the longest a text may be", "1000"},
    {"choices", "a choice's values, a list", ""},
    {"default", "its value unless the user gives one (without: required)", ""},
};

// job: and each of steps:
inline constexpr SettingDoc kTemplateStepKeys[] = {
    {"name", "a step's name (steps:)", ""},
    {"needs", "the steps it starts after, once they completed (steps:)", ""},
    {"options", "yard submit's long flags ({time: \"0:05:00\", cpus-per-task: \"{threads}\"}), checked by the CLI's "
                "parser", ""},
    {"command", "a list of words (one of command and script)", ""},
    {"script", "a script's text (one of command and script)", ""},
};

}  // namespace yard::web
