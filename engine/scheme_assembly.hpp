#pragma once
/// The residual and tangent of a scheme's step equations, assembled from its kernels, one per
/// element kind, over the engine's TermLayout. The one place that turns a term into a kernel call.
#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include <noether/engine/format.hpp>
#include <noether/engine/term_layout.hpp>

namespace noether {

/// A count a scheme declares: an integer, or the last enumerator of an enum of its slots.
template <class T>
concept SchemeCount = std::integral<T> || (std::is_enum_v<T> && std::convertible_to<T, int>);

/// The std::array<FieldKind, F> of a scheme's fields (F >= 1).
template <class T>
constexpr bool is_field_list = false;
template <std::size_t F>
constexpr bool is_field_list<std::array<FieldKind, F>> = F > 0;

/// What SchemeAssembly needs of a scheme (steppers/*.cpp are the examples), each member of exactly
/// this type:
///   static constexpr std::array<FieldKind, F> fields;  its unknown vector's fields, natural order
///   workspace_slots                                     TermWorkspace buffers its kernels use (an
///                                                       int, or the last enumerator of its slots)
///   struct Iterate;                                     what every kernel reads at one Newton iterate
///   TermShape shape(const Inertia&) const;              and for Potential, Constraint, Dissipation,
///                                                       ExternalLoad: the fields and blocks of each
///   void evaluate(const InertiaTerm&, const Iterate&, TermOutput&) const;
///                                                       and for PotentialTerm, ConstraintTerm,
///                                                       DissipationTerm, LoadTerm: R and dR/dx
/// A scheme with a global unknown s beyond its fields (an assembly with global sums) has kernels that
/// also write global_column (dR/ds), global_row (dphi/dx) and the sums (TermOutput::global_sum).
template <class S>
concept AssemblyScheme =
    is_field_list<std::remove_cvref_t<decltype(S::fields)>> && SchemeCount<decltype(S::workspace_slots)> &&
    requires { typename S::Iterate; } &&
    requires {
      static_cast<TermShape (S::*)(const Inertia&) const>(&S::shape);
      static_cast<TermShape (S::*)(const Potential&) const>(&S::shape);
      static_cast<TermShape (S::*)(const Constraint&) const>(&S::shape);
      static_cast<TermShape (S::*)(const Dissipation&) const>(&S::shape);
      static_cast<TermShape (S::*)(const ExternalLoad&) const>(&S::shape);
    } &&
    requires {
      static_cast<void (S::*)(const InertiaTerm&, const typename S::Iterate&, TermOutput&) const>(&S::evaluate);
      static_cast<void (S::*)(const PotentialTerm&, const typename S::Iterate&, TermOutput&) const>(&S::evaluate);
      static_cast<void (S::*)(const ConstraintTerm&, const typename S::Iterate&, TermOutput&) const>(&S::evaluate);
      static_cast<void (S::*)(const DissipationTerm&, const typename S::Iterate&, TermOutput&) const>(&S::evaluate);
      static_cast<void (S::*)(const LoadTerm&, const typename S::Iterate&, TermOutput&) const>(&S::evaluate);
    };

template <class Scheme>
class SchemeAssembly {
 public:
  using Iterate = typename Scheme::Iterate;

  /// Plans the scheme's terms on `system` (both must outlive this); global_sums > 0 for a scheme
  /// with a global unknown, whose kernels add up that many sums (TermLayout).
  SchemeAssembly(const System& system, const Scheme& scheme, int global_sums = 0)
      : scheme_(scheme),
        layout_(system, std::vector<FieldKind>(Scheme::fields.begin(), Scheme::fields.end()), shapes(system, scheme),
                Scheme::workspace_slots, global_sums) {
    static_assert(AssemblyScheme<Scheme>, "a scheme's fields, workspace_slots, Iterate, shape and evaluate for "
                                          "every element kind (engine/scheme_assembly.hpp)");
  }

  const TermLayout& layout() const { return layout_; }
  const CscPattern& pattern() const { return layout_.pattern(); }
  /// dR/dx of the last assembly with the matrix, in pattern order.
  std::span<const double> matrix() const { return layout_.assembler().values(); }
  /// The constant blocks changed (a new h): the next assembly with the matrix writes them again.
  void invalidate_constants() { layout_.assembler().invalidate_constants(); }

  /// residual (Newton order) = start (Newton order: rows no term owns) + the terms' residuals at
  /// `it`, each row's scale (the magnitude of the terms that make it up) and rounding floor
  /// (TermOutput::scale and floor, Assembler::assemble); when with_matrix, also the matrix.
  /// Bitwise the same for any number of threads.
  void assemble(const Iterate& it, ConstVectorRef start, VectorRef residual, VectorRef scale, VectorRef floor,
                bool with_matrix) {
    layout_.assembler().assemble([&](Index u, UnitOutput& out) { evaluate(u, it, out); }, start, residual, scale,
                                 floor, with_matrix);
  }
  /// residual = start + the terms' residuals at `it` alone, without scale, floor or matrix (the
  /// kernels still fill their scale and floor, which are not summed).
  void assemble_residual(const Iterate& it, ConstVectorRef start, VectorRef residual) {
    layout_.assembler().assemble([&](Index u, UnitOutput& out) { evaluate(u, it, out); }, start, residual, false);
  }
  /// The same for a scheme with a global unknown, with its global terms (Assembler::assemble).
  void assemble(const Iterate& it, ConstVectorRef start, VectorRef residual, VectorRef scale, VectorRef floor,
                bool with_matrix, GlobalTermsOutput& global) {
    layout_.assembler().assemble([&](Index u, UnitOutput& out) { evaluate(u, it, out); }, start, residual, scale,
                                 floor, with_matrix, global);
  }

  /// The element whose residual in Newton row `row` at `it` has the largest magnitude ("" when no
  /// term writes the row); for error messages.
  std::string largest_contributor(const Iterate& it, Index row) const {
    const Index term = layout_.assembler().largest_contributor(
        [&](Index u, UnitOutput& out) { evaluate(u, it, out); }, row);
    return term < 0 ? std::string() : layout_.owner(term);
  }

  /// "potential 'bad' gives a non-finite tangent entry (nan)": the first term whose residual or
  /// tangent at `it` holds a non-finite value ("" when none does); for error messages.
  std::string non_finite_contributor(const Iterate& it) const {
    const Assembler::NonFinite bad =
        layout_.assembler().first_non_finite([&](Index u, UnitOutput& out) { evaluate(u, it, out); });
    if (bad.unit < 0) return {};
    return layout_.owner(bad.unit) + " gives a non-finite " + (bad.in_matrix ? "tangent" : "residual") + " entry (" +
           format_number(bad.value) + ")";
  }

  /// Calls f(term) for every term of the given kind, in layout order, with a workspace of its own
  /// (serial; for the state update after a step). Term: InertiaTerm, PotentialTerm, ...
  template <class F>
  void for_each(TermKind kind, F&& f) const;

 private:
  static std::array<std::vector<TermShape>, 5> shapes(const System& system, const Scheme& scheme) {
    std::array<std::vector<TermShape>, 5> out;
    const auto add = [&](TermKind kind, auto list) {
      for (const auto& e : list) out[static_cast<std::size_t>(kind)].push_back(scheme.shape(*e.element));
    };
    add(TermKind::inertia, system.inertias());
    add(TermKind::potential, system.potentials());
    add(TermKind::constraint, system.constraints());
    add(TermKind::dissipation, system.dissipations());
    add(TermKind::load, system.external_loads());
    return out;
  }

  /// Calls f with term `ref` as its kernel sees it (when f takes that kind of term).
  template <class F>
  void visit(const TermRef& ref, const TermWorkspace& workspace, F&& g) const {
    const auto f = [&](const auto& term) {
      if constexpr (std::is_invocable_v<F&, decltype(term)>) g(term);
    };
    const System& system = layout_.system();
    const auto i = static_cast<std::size_t>(ref.element);
    const std::span<const DofRun> runs = layout_.runs(ref);
    switch (ref.kind) {
      case TermKind::inertia:
        return f(InertiaTerm({system.inertias()[i], ref, runs, workspace}, layout_.mass(ref.element)));
      case TermKind::potential:
        return f(PotentialTerm({system.potentials()[i], ref, runs, workspace}, layout_.potential_form(ref.element)));
      case TermKind::constraint:
        return f(ConstraintTerm({system.constraints()[i], ref, runs, workspace}, layout_.constraint_form(ref.element)));
      case TermKind::dissipation: return f(DissipationTerm(system.dissipations()[i], ref, runs, workspace));
      case TermKind::load: return f(LoadTerm(system.external_loads()[i], ref, runs, workspace));
    }
  }

  /// One function per term with the kernels inlined into it (flatten), so that a term's view is
  /// built in registers, as a hand-written switch over the kinds would have it; without it the
  /// views pass through memory to the out-of-line kernels (docs/notebook.md, "Scheme kernels").
  [[gnu::flatten, gnu::noinline]] void evaluate(Index unit, const Iterate& it, UnitOutput& out) const {
    const TermRef& ref = layout_.terms()[static_cast<std::size_t>(unit)];
    TermOutput term_out(out, layout_.shape(ref), ref);
    visit(ref, layout_.workspace(out), [&](const auto& term) { scheme_.evaluate(term, it, term_out); });
  }

  const Scheme& scheme_;
  TermLayout layout_;
};

template <class Scheme>
template <class F>
void SchemeAssembly<Scheme>::for_each(TermKind kind, F&& f) const {
  std::vector<double> memory(static_cast<std::size_t>(Scheme::workspace_slots * layout_.slot_size()));
  const TermWorkspace workspace(memory, layout_.slot_size());
  for (const TermRef& ref : layout_.terms())
    if (ref.kind == kind) visit(ref, workspace, f);
}

}  // namespace noether
