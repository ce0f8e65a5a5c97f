#pragma once
/// Common base of every element: a name and the coordinate blocks it touches.
#include <span>
#include <string>
#include <vector>

#include <noether/engine/types.hpp>

namespace noether {

/// An element acts on the concatenation of the coordinates of its blocks, in the order given:
/// its local coordinate vector q_local (size local_size()). Elements are immutable once built;
/// all per-evaluation scratch lives with the caller, so one element may be evaluated from many
/// threads at once.
class Element {
 public:
  Element(std::string name, std::vector<BlockId> blocks);
  virtual ~Element() = default;
  Element(const Element&) = delete;
  Element& operator=(const Element&) = delete;

  const std::string& name() const { return name_; }
  std::span<const BlockId> blocks() const { return blocks_; }
  /// Number of local coordinates the element expects; the System checks it against the blocks.
  virtual Index local_size() const = 0;
  /// Why the element's functions are undefined at q (local_size() entries), "" where they are
  /// defined: "the spring's two points coincide (length 0), where ...". Steppers refuse an initial
  /// state where an element is undefined, and name it when a step's equations are not finite.
  virtual std::string singularity(ConstVectorRef /*q*/) const { return {}; }

 private:
  std::string name_;
  std::vector<BlockId> blocks_;
};

}  // namespace noether
