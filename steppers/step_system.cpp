#include <noether/steppers/step_system.hpp>

#include <noether/engine/parallel_ranges.hpp>

namespace noether {

void StepSystemBase::evaluate(ConstVectorRef x, VectorRef residual, bool with_matrix) {
  natural_x_.resize(x.size());
  to_natural_order(x, natural_x_);
  evaluate_natural(natural_x_, residual, with_matrix);
}

std::string StepSystemBase::describe_row(Index row) const {
  const Index unit = natural_x_.size() != pattern().n  // nothing evaluated yet
                         ? -1
                         : assembler().largest_contributor(
                               [&](Index u, UnitOutput& out) { evaluate_unit(u, natural_x_, out); }, row);
  return units_.describe_row(unit, row_label(natural_[static_cast<std::size_t>(row)]));
}

NewtonReport StepSystemBase::solve(NewtonSolver& newton, VectorRef x, const std::string& context) {
  Vector newton_x(x.size());
  to_newton_order(x, newton_x);
  // On failure x stays at the initial guess: NewtonError carries what went wrong.
  const NewtonReport report = newton.solve(*this, newton_x, context);
  to_natural_order(newton_x, x);
  return report;
}

void StepSystemBase::to_newton_order(ConstVectorRef natural, VectorRef newton) const {
  for_each_index_range(static_cast<Index>(position_.size()), [&](Index begin, Index end) {
    for (Index i = begin; i < end; ++i) newton(position_[static_cast<std::size_t>(i)]) = natural(i);
  });
}

void StepSystemBase::to_natural_order(ConstVectorRef newton, VectorRef natural) const {
  for_each_index_range(static_cast<Index>(position_.size()), [&](Index begin, Index end) {
    for (Index i = begin; i < end; ++i) natural(i) = newton(position_[static_cast<std::size_t>(i)]);
  });
}

void StepSystemBase::set_plan(const System& system, const std::vector<FieldKind>& fields) {
  num_coordinates_ = system.num_coordinates();
  position_ = body_wise_positions(system, fields);
  natural_.resize(position_.size());
  for (std::size_t i = 0; i < position_.size(); ++i) natural_[static_cast<std::size_t>(position_[i])] = static_cast<Index>(i);
  std::vector<UnitLayout> layouts = units_.take_layouts();
  for (UnitLayout& layout : layouts)
    for (Index& dof : layout.dofs) dof = position_[static_cast<std::size_t>(dof)];
  assembler_.emplace(AssemblyPlan(static_cast<Index>(position_.size()), std::move(layouts)));
}

}  // namespace noether
