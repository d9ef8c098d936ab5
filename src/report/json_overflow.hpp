// SPDX-License-Identifier: Apache-2.0
// Where a number too large for a double sits in a JSON text. nlohmann's DOM parser throws
// out_of_range 406 ("number overflow parsing '1e400'") without a position, unlike its syntax
// errors; a second pass through its SAX interface, taken only after that failure, finds the
// byte and the JSON path of the number, so the message names line, column, entry and field as
// every other rejection does.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/json_structure_sax.hpp"

namespace kerntime::report {

struct JsonOverflow {
  bool found = false;
  std::size_t byte = 0;  ///< 1-based offset of the number's first byte, as nlohmann counts
  std::string path;      ///< "entries[0].samples[3]"; "top level" for a bare number
  std::string number;    ///< the number as written
};

namespace json_overflow_detail {

class Locator : public StructureSax {
 public:
  bool start_object(std::size_t) override {
    frames_.push_back(Frame{false, 0, ""});
    return true;
  }
  bool key(string_t& name) override {
    frames_.back().key = name;
    return true;
  }
  bool end_object() override {
    frames_.pop_back();
    return value();
  }
  bool start_array(std::size_t) override {
    frames_.push_back(Frame{true, 0, ""});
    return true;
  }
  bool end_array() override {
    frames_.pop_back();
    return value();
  }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& error) override {
    // 406 is the overflow; any other error is the DOM parser's to report.
    if (error.id == 406) {
      result_.found = true;
      result_.byte = position >= last_token.size() ? position - last_token.size() + 1 : 1;
      result_.path = path();
      result_.number = last_token;
    }
    return false;
  }
  const JsonOverflow& result() const { return result_; }

 private:
  struct Frame {
    bool array;
    std::size_t count;  // values completed so far (arrays)
    std::string key;    // the member being read (objects)
  };

  // A value ended: the next one in an array has the next index.
  bool value() override {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().count;
    return true;
  }

  // A key of the file's own (an unknown field) as it is, unless it holds a control character:
  // then JSON-quoted, so a "\n" in a key does not break the message's one line.
  static std::string key_in_path(const std::string& key) {
    for (const char c : key) {
      if (static_cast<unsigned char>(c) < 0x20) {
        return nlohmann::json(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      }
    }
    return key;
  }

  // The path of the value being read now, as report messages write it.
  std::string path() const {
    std::string out;
    for (const Frame& frame : frames_) {
      if (frame.array) {
        out += "[" + std::to_string(frame.count) + "]";
      } else {
        out += (out.empty() ? "" : ".") + key_in_path(frame.key);
      }
    }
    return out.empty() ? "top level" : out;
  }

  std::vector<Frame> frames_;
  JsonOverflow result_;
};

}  // namespace json_overflow_detail

/// The first number in `text` too large for a double; `found` is false when there is none.
inline JsonOverflow find_json_overflow(std::string_view text) {
  json_overflow_detail::Locator locator;
  nlohmann::json::sax_parse(text.begin(), text.end(), &locator);
  return locator.result();
}

}  // namespace kerntime::report
