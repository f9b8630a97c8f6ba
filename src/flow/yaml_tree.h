// A YAML document read for flow files: libyaml's parser (the C reference parser) into one
// compact tree, every node with its line. A flow of a hundred thousand steps is a file of
// two million YAML events: yaml-cpp took ten seconds and a gigabyte to build its node
// graph of it, this a fraction of a second and a few dozen megabytes (bench/flow/dag.sh).
// Read-only; anchors and aliases are followed; every scalar reads as text.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace yard {

class YamlTree;

// A value of the wrong kind or form where it is read: what was expected, at its line.
struct YamlValueError : std::runtime_error {
  YamlValueError(int at, const std::string& what) : std::runtime_error(what), line(at) {}
  int line;
};

// A node of a tree, or none (a key that is not there): a small handle, cheap to copy.
class YamlNode {
 public:
  YamlNode() = default;
  explicit operator bool() const { return tree_ != nullptr; }
  bool is_null() const;
  bool is_scalar() const;
  bool is_sequence() const;
  bool is_map() const;
  int line() const;  // from 1
  std::size_t size() const;  // of a sequence or a map

  // A map's value at `key` (none if it has no such key, or is not a map).
  YamlNode operator[](std::string_view key) const;
  // A sequence's items, a map's keys and values (for a map: key i is at 2i, its value at 2i+1).
  YamlNode child(std::size_t i) const;
  std::vector<YamlNode> items() const;

  // A scalar's text; throws YamlValueError for a sequence or a map.
  std::string_view text() const;
  std::string str() const { return std::string(text()); }
  int integer() const;  // throws YamlValueError if it is not a whole number that fits
  // A sequence of scalars, or one scalar as a list of one.
  std::vector<std::string> strings() const;

 private:
  friend class YamlTree;
  YamlNode(const YamlTree* tree, std::uint32_t index) : tree_(tree), index_(index) {}
  const YamlTree* tree_ = nullptr;
  std::uint32_t index_ = 0;
};

class YamlTree {
 public:
  // The document in `text` ("source:LINE: malformed YAML: why" when it is not YAML).
  static Result<std::unique_ptr<YamlTree>> parse(std::string_view text, const std::string& source);
  // The document in the file at `path` ("cannot read 'path': why").
  static Result<std::unique_ptr<YamlTree>> load(const std::string& path);
  YamlNode root() const { return nodes_.empty() ? YamlNode() : YamlNode(this, 0); }

 private:
  friend class YamlNode;
  friend struct YamlBuilder;
  enum class Kind : std::uint8_t { Null, Scalar, Sequence, Map };
  struct Node {
    Kind kind;
    std::uint32_t line;
    std::uint32_t first;  // a scalar: its text's offset in text_; a container: its first child in kids_
    std::uint32_t count;  // a scalar: its text's length; a container: its children (a map's: 2 per entry)
  };
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> kids_;
  std::string text_;
};

}  // namespace yard

namespace yard {

// "source:LINE" of a node, the prefix of every message about it.
inline std::string yaml_where(const std::string& source, const YamlNode& node) {
  return source + ":" + std::to_string(node.line());
}

}  // namespace yard
