#include <noether/engine/scheme_assembly.hpp>

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include <noether/engine/parallel_ranges.hpp>
#include <noether/engine/quote.hpp>
#include <noether/engine/structure.hpp>

namespace noether {
namespace {

constexpr const char* kKindNames[] = {"inertia", "potential", "constraint", "dissipation", "external load", "actuator"};

/// A term's owner as messages name it: "constraint 'joint3'".
std::string term_owner(TermKind kind, const Element& element) {
  return std::string(kKindNames[static_cast<std::size_t>(kind)]) + " " + quote(element.name());
}

}  // namespace

/// Every element of `kind`, in the system's order.
std::vector<TermLayout::PlacedView> TermLayout::placed_of(const System& system, TermKind kind) {
  std::vector<PlacedView> out;
  const auto add = [&](auto list) {
    for (const auto& e : list) out.push_back({e.element.get(), &e.dofs});
  };
  switch (kind) {
    case TermKind::inertia: add(system.inertias()); break;
    case TermKind::potential: add(system.potentials()); break;
    case TermKind::dissipation: add(system.dissipations()); break;
    case TermKind::load: add(system.external_loads()); break;
    case TermKind::actuator: add(system.actuators()); break;
    case TermKind::constraint:
      for (const Placed<Constraint>& e : system.constraints())
        out.push_back({e.element.get(), &e.dofs, e.element->num_equations(), e.first_multiplier});
      break;
  }
  return out;
}

namespace {

/// Appends the runs of dofs (in order, consecutive dofs merged) to runs.
void append_runs(std::span<const Index> dofs, std::vector<DofRun>& runs) {
  for (std::size_t i = 0; i < dofs.size(); ++i) {
    if (i > 0 && dofs[i] == dofs[i - 1] + 1) ++runs.back().size;
    else runs.push_back({dofs[i], 1});
  }
}

/// The structure of a block of the given pattern for element e of `kind` (rows x cols).
Structure structure_of(Pattern pattern, const Element& e, TermKind kind) {
  if (pattern == Pattern::dense) return {};
  if (pattern == Pattern::mass) {
    if (kind != TermKind::inertia) throw std::invalid_argument("a mass pattern on the non-inertia " + quote(e.name()));
    return mass_structure(static_cast<const Inertia&>(e));
  }
  if (kind != TermKind::constraint)
    throw std::invalid_argument("a constraint pattern on the non-constraint " + quote(e.name()));
  const auto& c = static_cast<const Constraint&>(e);
  if (pattern == Pattern::jacobian) return jacobian_structure(c);
  if (pattern == Pattern::jacobian_transpose) return jacobian_structure(c).transpose();
  return hessian_structure(c);
}

}  // namespace

TermLayout::TermLayout(const System& system, std::vector<FieldKind> fields,
                       const std::array<std::vector<TermShape>, kTermKinds>& shapes, int workspace_slots, int global_sums,
                       const Distribution* distribution)
    : system_(system), fields_(std::move(fields)), position_(body_wise_positions(system, fields_)),
      natural_(position_.size()), assembler_(make_assembler(shapes, workspace_slots, global_sums, distribution)) {
  for (std::size_t i = 0; i < position_.size(); ++i) natural_[static_cast<std::size_t>(position_[i])] = static_cast<Index>(i);
}

std::pair<int, Index> TermLayout::field_of(Index i) const {
  int f = 0;
  while (f + 1 < static_cast<int>(fields_.size()) && i >= field_offsets_[static_cast<std::size_t>(f) + 1]) ++f;
  return {f, i - field_offsets_[static_cast<std::size_t>(f)]};
}

void TermLayout::to_newton_order(ConstVectorRef natural, VectorRef newton) const {
  for_each_index_range(size(), [&](Index begin, Index end) {
    for (Index i = begin; i < end; ++i) newton(position_[static_cast<std::size_t>(i)]) = natural(i);
  });
}

void TermLayout::to_natural_order(ConstVectorRef newton, VectorRef natural) const {
  for_each_index_range(size(), [&](Index begin, Index end) {
    for (Index i = begin; i < end; ++i) natural(i) = newton(position_[static_cast<std::size_t>(i)]);
  });
}

std::string TermLayout::owner(Index term) const {
  const TermRef& ref = terms_[static_cast<std::size_t>(term)];
  const auto i = static_cast<std::size_t>(ref.element);
  const Element* element = nullptr;
  switch (ref.kind) {
    case TermKind::inertia: element = system_.inertias()[i].element.get(); break;
    case TermKind::potential: element = system_.potentials()[i].element.get(); break;
    case TermKind::constraint: element = system_.constraints()[i].element.get(); break;
    case TermKind::dissipation: element = system_.dissipations()[i].element.get(); break;
    case TermKind::load: element = system_.external_loads()[i].element.get(); break;
    case TermKind::actuator: element = system_.actuators()[i].element.get(); break;
  }
  return term_owner(ref.kind, *element);
}

void TermLayout::copy_forms() {
  for (const Placed<Inertia>& e : system_.inertias()) {
    const SparseEntries* mass = e.element->constant_mass();
    masses_.push_back(mass ? std::optional(arena_.copy(*mass)) : std::nullopt);
  }
  // A form that elements share (a body's orthonormality) is copied, and its bytes hashed, once.
  std::unordered_map<const QuadraticFormView*, QuadraticFormView> copied;
  const auto copy = [&](const QuadraticFormView* form) -> std::optional<QuadraticFormView> {
    if (!form) return std::nullopt;
    auto [it, fresh] = copied.try_emplace(form);
    if (fresh) it->second = arena_.copy(*form);
    return it->second;
  };
  for (const Placed<Potential>& e : system_.potentials()) potential_forms_.push_back(copy(e.element->quadratic_form()));
  for (const Placed<Constraint>& e : system_.constraints())
    constraint_forms_.push_back(copy(e.element->quadratic_form()));
}

/// The table of a shape, shared by every term with the same fields and blocks.
Index TermLayout::add_shape(const TermShape& shape, TermKind kind, const Element& element) {
  const auto refuse = [&](const std::string& why) {  // the owner's words made for a refusal alone
    throw std::invalid_argument(term_owner(kind, element) + ": " + why);
  };
  ShapeTable table;
  table.block.fill(-1);
  std::int8_t coordinates = 0, multipliers = 0;
  for (int f : shape.fields()) {
    if (f < 0 || f >= static_cast<int>(fields_.size()))
      refuse("the scheme's shape names field " + std::to_string(f) + " of " + std::to_string(fields_.size()));
    const auto i = static_cast<std::size_t>(f);
    table.multiplier[i] = field_kind(f) == FieldKind::multipliers;
    if (table.multiplier[i] && kind != TermKind::constraint)
      refuse("only constraints have multiplier rows");
    table.coordinate_fields_before[i] = coordinates;
    table.multiplier_fields_before[i] = multipliers;
    ++(table.multiplier[i] ? multipliers : coordinates);
  }
  const auto in_shape = [&](int f) { return std::ranges::find(shape.fields(), f) != shape.fields().end(); };
  for (std::size_t b = 0; b < shape.blocks().size(); ++b) {
    const TermShape::Block& block = shape.blocks()[b];
    if (!in_shape(block.row_field) || !in_shape(block.col_field))
      refuse("the scheme declares a block outside the term's fields");
    table.block[static_cast<std::size_t>(block.row_field * kMaxFields + block.col_field)] = static_cast<std::int8_t>(b);
  }
  if (const auto found = std::ranges::find(shapes_, table); found != shapes_.end())
    return static_cast<Index>(found - shapes_.begin());
  shapes_.push_back(table);
  return static_cast<Index>(shapes_.size()) - 1;
}

/// The term's unknowns, field after field of its shape, as natural indices mapped to Newton
/// positions, and its blocks with their structures.
UnitLayout TermLayout::unit_layout(const TermRef& ref, const TermShape& shape, const PlacedView& placed) const {
  UnitLayout unit;
  std::vector<Index> local_offset(fields_.size(), 0);
  for (int f : shape.fields()) {
    local_offset[static_cast<std::size_t>(f)] = static_cast<Index>(unit.dofs.size());
    const Index offset = field_offset(f);
    if (field_kind(f) == FieldKind::coordinates)
      for (Index dof : *placed.dofs) unit.dofs.push_back(offset + dof);
    else
      for (Index r = 0; r < ref.equations; ++r) unit.dofs.push_back(offset + ref.first_multiplier + r);
  }
  for (Index& dof : unit.dofs) dof = position_[static_cast<std::size_t>(dof)];
  const auto count = [&](int f) { return field_kind(f) == FieldKind::coordinates ? ref.size : ref.equations; };
  for (const TermShape::Block& b : shape.blocks())
    unit.blocks.push_back({local_offset[static_cast<std::size_t>(b.row_field)], count(b.row_field),
                           local_offset[static_cast<std::size_t>(b.col_field)], count(b.col_field),
                           structure_of(b.pattern, *placed.element, ref.kind), b.constant});
  return unit;
}

TermUnknowns TermLayout::term_unknowns(const TermRef& ref, const TermShape& shape, const PlacedView& placed,
                                       int owner) const {
  TermUnknowns out{owner, {}, {}};
  for (int f : shape.fields()) {
    const Index offset = field_offset(f);
    if (field_kind(f) == FieldKind::coordinates)
      for (Index dof : *placed.dofs) out.coordinates.push_back(position_[static_cast<std::size_t>(offset + dof)]);
    else
      for (Index r = 0; r < ref.equations; ++r)
        out.multipliers.push_back(position_[static_cast<std::size_t>(offset + ref.first_multiplier + r)]);
  }
  return out;
}

/// Terms in the order of their smallest coordinate (the order in which the assembly visits
/// them, engine/assembly_schedule.hpp, so that the terms and the elements' data are read in
/// sequence), their runs and shapes, and the assembly plan.
Assembler TermLayout::make_assembler(const std::array<std::vector<TermShape>, kTermKinds>& shapes, int workspace_slots,
                                     int global_sums, const Distribution* distribution) {
  if (fields_.empty() || fields_.size() > static_cast<std::size_t>(kMaxFields) || workspace_slots < 0)
    throw std::invalid_argument("a scheme needs 1 to " + std::to_string(kMaxFields) + " fields, got " +
                                std::to_string(fields_.size()) + ", and no negative workspace");
  Index offset = 0;
  for (FieldKind kind : fields_) {
    field_offsets_.push_back(offset);
    offset += kind == FieldKind::coordinates ? system_.num_coordinates() : system_.num_multipliers();
  }
  copy_forms();
  struct Planned {
    Index first_coordinate;
    TermRef ref;
    const TermShape* shape;
    PlacedView placed;
  };
  std::vector<Planned> planned;
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    const auto kind = static_cast<TermKind>(k);
    const std::vector<PlacedView> placed = placed_of(system_, kind);
    for (std::size_t i = 0; i < placed.size(); ++i) {
      const TermShape& shape = shapes[k][i];
      if (shape.fields().empty()) continue;
      const std::vector<Index>& dofs = *placed[i].dofs;
      const TermRef ref{kind, static_cast<Index>(i), add_shape(shape, kind, *placed[i].element), static_cast<Index>(dofs.size()),
                        placed[i].equations, placed[i].first_multiplier, 0, 0};
      planned.push_back({dofs.empty() ? 0 : *std::ranges::min_element(dofs), ref, &shape, placed[i]});
      slot_size_ = std::max({slot_size_, ref.size, ref.equations, ref.size * ref.equations});
    }
  }
  std::ranges::stable_sort(planned, {}, &Planned::first_coordinate);
  std::vector<UnitLayout> units;
  std::vector<Index> ids;
  const std::vector<int> process =
      distribution ? coordinate_processes(system_, distribution->ranks()) : std::vector<int>();
  const auto owner = [&](const Planned& p) {
    return process.empty() ? 0 : process[static_cast<std::size_t>(p.first_coordinate)];
  };
  std::vector<TermUnknowns> touched;  // over several processes: every term's, for unknown_owners_
  for (Planned& p : planned) {
    p.ref.runs_begin = static_cast<Index>(runs_.size());
    append_runs(*p.placed.dofs, runs_);
    p.ref.runs_end = static_cast<Index>(runs_.size());
    if (!distribution || owner(p) == distribution->rank()) {
      ids.push_back(static_cast<Index>(terms_.size()));
      units.push_back(unit_layout(p.ref, *p.shape, p.placed));
    }
    if (distribution) touched.push_back(term_unknowns(p.ref, *p.shape, p.placed, owner(p)));
    terms_.push_back(p.ref);
  }
  if (distribution) unknown_owners_ = divide_unknowns(size(), touched);
  return Assembler(AssemblyPlan(size(), units, std::move(ids)), workspace_slots * slot_size_, global_sums,
                   distribution);
}

}  // namespace noether
