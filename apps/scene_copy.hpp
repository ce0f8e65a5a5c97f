#pragma once
/// The copy of a scene's text that a run over parts writing checkpoints keeps in its output
/// directory, and that checkpoint.json names instead of holding the scene (docs/output.md,
/// "Checkpoints"): no process of such a run holds the whole scene once its part is built, and a
/// checkpoint costs its state's bytes, not the scene's. Written by CheckpointWriter, read back and
/// checked by read_checkpoint (apps/checkpoint.hpp).
#include <cstdint>
#include <string>
#include <string_view>

namespace noether {

/// Which text the copy holds: its length and FNV-1a 64-bit hash (a check against a copy edited
/// or cut short after the run wrote it, not a cryptographic one).
struct SceneCopy {
  static constexpr const char* kFileName = "scene.json";
  std::uint64_t bytes = 0;
  std::string digest;  ///< 16 lowercase hexadecimal digits
  bool operator==(const SceneCopy&) const = default;
};

/// The copy of `text` (its bytes and digest).
SceneCopy scene_copy_of(std::string_view text);

}  // namespace noether
