// SPDX-License-Identifier: Apache-2.0
// Where nlohmann's callback parser is in the text, so the report reader can turn each entry
// and each trace record into the model as soon as it is read and tell the parser to drop it:
// the DOM then never holds more than one of them, and memory follows what the model keeps
// rather than the 35-60x of a file that a whole DOM costs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kerntime::report {

class JsonPosition {
 public:
  using Event = nlohmann::json::parse_event_t;

  /// Call first for every event the parse callback sees, with its depth. The frames are set
  /// from the depth rather than pushed and popped alone: nlohmann reports the start of a
  /// container the callback dropped but not its end.
  void update(int depth, Event event, const nlohmann::json& parsed) {
    const auto level = static_cast<std::size_t>(depth);
    switch (event) {
      case Event::object_start:
      case Event::array_start:
        truncate(level);
        count_element(level);
        if (frames_.size() < kTrackedLevels) {
          frames_.push_back(Frame{event == Event::array_start, 0, ""});
        }
        break;
      case Event::key:
        truncate(level);
        if (level > 0 && level <= frames_.size()) {
          frames_[level - 1].key = parsed.get_ref<const std::string&>();
        }
        break;
      case Event::value:
        truncate(level);
        count_element(level);
        break;
      case Event::object_end:
      case Event::array_end:
        truncate(level + 1);  // the container that ends is the last frame
        break;
    }
  }

  /// Whether the frame at `level` (0: the top-level value) is an object now reading `key`.
  bool member_of_object(std::size_t level, const char* key) const {
    return level < frames_.size() && !frames_[level].array && frames_[level].key == key;
  }

  /// Whether the frame at `level` is an array.
  bool array_at(std::size_t level) const { return level < frames_.size() && frames_[level].array; }

  /// The key the object at `level` is reading; empty for an array or a level not open.
  const std::string& key_at(std::size_t level) const {
    static const std::string none;
    return level < frames_.size() && !frames_[level].array ? frames_[level].key : none;
  }

  /// The index of the element of the array at `level` that was started last.
  std::size_t index_at(std::size_t level) const {
    return level < frames_.size() && frames_[level].started > 0 ? frames_[level].started - 1 : 0;
  }

 private:
  // The reader looks no deeper than a sample (level 4); deeper levels are not kept, so a
  // file of nested brackets costs nothing here beyond what the parser itself keeps.
  static constexpr std::size_t kTrackedLevels = 8;

  struct Frame {
    bool array;
    std::size_t started;  // elements begun so far (arrays)
    std::string key;      // the member being read (objects)
  };

  void truncate(std::size_t size) {
    if (frames_.size() > size) frames_.resize(size);
  }

  // A value or container begins at `level`: inside an array, it is the next element.
  void count_element(std::size_t level) {
    if (level > 0 && level <= frames_.size() && frames_[level - 1].array) {
      ++frames_[level - 1].started;
    }
  }

  std::vector<Frame> frames_;
};

}  // namespace kerntime::report
