#include <noether/engine/element.hpp>

#include <stdexcept>
#include <utility>

#include <noether/engine/quote.hpp>

namespace noether {

Element::Element(std::string name, std::vector<BlockId> blocks)
    : name_(std::move(name)), blocks_(std::move(blocks)) {
  if (name_.empty()) throw std::invalid_argument("an element needs a non-empty name");
  if (blocks_.empty())
    throw std::invalid_argument("element " + quote(name_) + " touches no coordinate block; give it at least one");
}

}  // namespace noether
