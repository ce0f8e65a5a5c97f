#pragma once
/// A scheme's step equations as the engine assembles them. TermLayout decides, once per system,
/// where the scheme's terms live in its Newton system: which element touches which unknowns, the
/// body-wise (Newton) order of the unknowns, the assembly plan, the elements' exact forms (copied
/// once into shared storage) and the per-thread workspaces. SchemeAssembly assembles the residual
/// and tangent from the scheme's kernels, one per element kind: the one place that turns a term
/// into a kernel call.
///
/// A scheme's unknown vector x is made of fields, one after the other (the natural order): a
/// coordinate field holds one entry per coordinate (d), a multiplier field one per constraint row
/// (m). Each element is a term: its local unknowns are, for each field the scheme's kernel of that
/// element uses, the element's coordinates (coordinate field) or its multiplier rows (multiplier
/// field, constraints only). A kernel writes the residual rows of those fields and the blocks
/// named by a pair of fields (TermShape); it never sees a position.
#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <noether/engine/assembler.hpp>
#include <noether/engine/exact_form.hpp>
#include <noether/engine/format.hpp>
#include <noether/engine/partition.hpp>
#include <noether/engine/system.hpp>
#include <noether/engine/unknown_ordering.hpp>

namespace noether {

/// The fields of a scheme's unknown vector, in natural order.
using FieldKinds = std::span<const FieldKind>;

/// At most this many fields per scheme.
inline constexpr int kMaxFields = 6;

/// The element interfaces of the engine, one kind of term each.
enum class TermKind : std::uint8_t { inertia, potential, constraint, dissipation, load, actuator };
/// The number of TermKinds.
inline constexpr std::size_t kTermKinds = static_cast<std::size_t>(TermKind::actuator) + 1;

/// Where a block's structural nonzeros come from (engine/structure.hpp): all entries, the
/// constant mass matrix's nonzeros (n x n), the constraint Jacobian's (m x n) or its transpose's
/// (n x m), the union of the constraint Hessians' (n x n).
enum class Pattern : std::uint8_t { dense, mass, jacobian, jacobian_transpose, hessian };

/// What a scheme's kernel of one term uses: its fields (the term's local unknowns, in this order)
/// and the blocks of its tangent, each named by (row field, column field). A shape without fields
/// leaves the element out of the Newton system.
class TermShape {
 public:
  /// The element takes no part in the step equations.
  TermShape() = default;
  explicit TermShape(std::initializer_list<int> fields) : fields_(fields) {}

  /// Declares the block d R(row field) / d x(col field); `constant`: its values do not depend on x
  /// (they are written again only when the step size changes). Both fields must be the shape's.
  TermShape& block(int row_field, int col_field, Pattern pattern = Pattern::dense, bool constant = false) {
    blocks_.push_back({row_field, col_field, pattern, constant});
    return *this;
  }

  struct Block {
    int row_field, col_field;
    Pattern pattern;
    bool constant;
  };
  std::span<const int> fields() const { return fields_; }
  std::span<const Block> blocks() const { return blocks_; }

 private:
  std::vector<int> fields_;
  std::vector<Block> blocks_;
};

/// The coordinates [first, first + size): an element's coordinates are a few such runs (one per
/// coordinate block it touches).
struct DofRun {
  Index first, size;
};

/// A term as the assembly reads it (one per element in the Newton system).
struct TermRef {
  TermKind kind;
  Index element;           ///< into the system's list of that kind
  Index shape;             ///< into the layout's shape tables
  Index size;              ///< n: the element's local coordinates
  Index equations;         ///< m: its multiplier rows (constraints), else 0
  Index first_multiplier;  ///< its first multiplier row (constraints), else 0
  Index runs_begin, runs_end;
};

/// Where each field of a shape sits in a term's local unknowns (after the coordinate fields and
/// multiplier fields before it in the shape: n and m entries each) and which block a field pair is.
struct ShapeTable {
  std::array<std::int8_t, kMaxFields> coordinate_fields_before{};
  std::array<std::int8_t, kMaxFields> multiplier_fields_before{};
  std::array<bool, kMaxFields> multiplier{};                   ///< the field has m entries, not n
  std::array<std::int8_t, kMaxFields * kMaxFields> block{};  ///< index of block (row, col); -1: none
  bool operator==(const ShapeTable&) const = default;
};

/// A thread's scratch for the kernels, `slots` buffers of slot_size doubles each; slot_size is the
/// largest n, m or n x m of any term, so a kernel's local vectors and matrices fit without
/// allocation. Nothing is carried from one term to the next.
class TermWorkspace {
 public:
  TermWorkspace(std::span<double> memory, Index slot_size) : memory_(memory), slot_size_(slot_size) {}
  Eigen::Map<Vector> vector(int slot, Index size) const { return {data(slot), size}; }
  Eigen::Map<Matrix> matrix(int slot, Index rows, Index cols) const { return {data(slot), rows, cols}; }

 private:
  double* data(int slot) const { return memory_.data() + static_cast<std::ptrdiff_t>(slot) * slot_size_; }
  std::span<double> memory_;
  Index slot_size_;
};

/// A view of local values: a segment of a global vector, or a workspace buffer.
using LocalVector = Eigen::Map<const Vector>;

/// x[offset, offset + size) as a view (for a field of a scheme's unknown vector).
inline LocalVector segment_view(ConstVectorRef x, Index offset, Index size) { return {x.data() + offset, size}; }

/// An element as a kernel sees it: the element, its exact form (copied to shared storage) and
/// the gathers of its local values. E is Inertia, Potential, Constraint, Dissipation, ExternalLoad
/// or Actuator.
template <class E>
class Term {
 public:
  Term(const Placed<E>& placed, const TermRef& ref, std::span<const DofRun> runs, const TermWorkspace& workspace)
      : placed_(placed), ref_(ref), runs_(runs), workspace_(workspace) {}

  /// The element (read only when asked: kernels that work from the exact form never touch it).
  const E& element() const { return *placed_.element; }
  /// n, the element's local coordinates.
  Index size() const { return ref_.size; }
  /// x (d, natural coordinate order; a Vector or a view of one) at the element's coordinates: a
  /// view into x when they are consecutive, else gathered into workspace slot `slot`.
  template <class X>
  LocalVector coordinates(const X& x, int slot) const;
  /// (a + b)/2 in workspace slot `slot`.
  LocalVector midpoint(const LocalVector& a, const LocalVector& b, int slot) const;
  /// global (d) += local (n) at the element's coordinates.
  void add_at_coordinates(ConstVectorRef local, VectorRef global) const;
  const TermWorkspace& workspace() const { return workspace_; }

 protected:
  const TermRef& ref() const { return ref_; }

 private:
  const Placed<E>& placed_;
  const TermRef& ref_;
  std::span<const DofRun> runs_;
  const TermWorkspace& workspace_;
};

/// An inertia term; mass() is its constant M (n x n), or nullptr when M depends on q.
class InertiaTerm : public Term<Inertia> {
 public:
  InertiaTerm(const Term<Inertia>& term, const SparseEntries* mass) : Term(term), mass_(mass) {}
  const SparseEntries* mass() const { return mass_; }

 private:
  const SparseEntries* mass_;
};

/// A potential term; form() is its exact form (one function), or nullptr for a general potential.
class PotentialTerm : public Term<Potential> {
 public:
  PotentialTerm(const Term<Potential>& term, const QuadraticFormView* form) : Term(term), form_(form) {}
  const QuadraticFormView* form() const { return form_; }

 private:
  const QuadraticFormView* form_;
};

/// A constraint term; form() is its exact form, or nullptr for a general constraint.
class ConstraintTerm : public Term<Constraint> {
 public:
  ConstraintTerm(const Term<Constraint>& term, const QuadraticFormView* form) : Term(term), form_(form) {}
  const QuadraticFormView* form() const { return form_; }
  /// m, the constraint's rows.
  Index equations() const { return ref().equations; }
  /// A multiplier field (m_total entries; a Vector or a view of one) at the constraint's rows: a view (m).
  template <class X>
  LocalVector multipliers(const X& field) const {
    return {field.data() + ref().first_multiplier, equations()};
  }

 private:
  const QuadraticFormView* form_;
};

using DissipationTerm = Term<Dissipation>;
using LoadTerm = Term<ExternalLoad>;
using ActuatorTerm = Term<Actuator>;

/// Where a term writes: its residual rows and tangent blocks, by field.
class TermOutput {
 public:
  TermOutput(UnitOutput& out, const ShapeTable& shape, const TermRef& ref) : out_(out), shape_(shape), ref_(ref) {}

  /// The rows of field f (n or m of them), zeroed before the kernel runs.
  Eigen::Map<Vector> residual(int field) { return rows_of(out_.residual(), field); }
  /// The scale of the rows of field f, zeroed before the kernel runs: a kernel whose rows are
  /// differences of larger terms adds those terms' magnitudes here; elsewhere the rows' own
  /// magnitudes count. Newton stops when every row is small against its scale (solvers/newton.hpp).
  Eigen::Map<Vector> scale(int field) { return rows_of(out_.scale(), field); }
  /// The rounding floor of the rows of field f, zeroed before the kernel runs: for rows whose
  /// terms may all vanish (steppers/row_scale.hpp).
  Eigen::Map<Vector> floor(int field) { return rows_of(out_.floor(), field); }
  /// The block d R(row field)/d x(col field) declared by the shape, zeroed before the kernel runs.
  Eigen::Map<Matrix> block(int row_field, int col_field) {
    return out_.block(static_cast<std::size_t>(shape_.block[static_cast<std::size_t>(row_field * kMaxFields + col_field)]));
  }
  /// False when only the residual is wanted: the kernel may skip its tangent.
  bool with_matrix() const { return out_.with_matrix(); }

  /// Schemes with a global unknown s (one beyond the fields) and a global row phi (one beyond
  /// their rows), a sum over the terms:
  /// d R(field)/ds of the term's rows of field f (zeroed; read with the matrix only),
  Eigen::Map<Vector> global_column(int field) { return rows_of(out_.global_column(), field); }
  /// d phi/d x(field) of the term's unknowns of field f (zeroed; read with the matrix only),
  Eigen::Map<Vector> global_row(int field) { return rows_of(out_.global_row(), field); }
  /// and the term's part of the scheme's global sum k (zeroed; always read): phi, dphi/ds, ...
  double& global_sum(int k) { return out_.global_sums()[static_cast<std::size_t>(k)]; }

 private:
  Eigen::Map<Vector> rows_of(Eigen::Map<Vector>& local, int field) const {
    const auto f = static_cast<std::size_t>(field);
    const Index coordinates = shape_.coordinate_fields_before[f], multipliers = shape_.multiplier_fields_before[f];
    return {local.data() + coordinates * ref_.size + multipliers * ref_.equations,
            shape_.multiplier[f] ? ref_.equations : ref_.size};
  }

  UnitOutput& out_;
  const ShapeTable& shape_;
  const TermRef& ref_;
};

/// The layout of one scheme's terms on one system; see the file comment. Built once.
class TermLayout {
 public:
  /// fields: the scheme's fields in natural order. shapes: per kind, one shape per element of the
  /// system's list of that kind (shapes[TermKind]); `workspace_slots`: buffers per thread;
  /// `global_sums` > 0 for a scheme with one global unknown beyond its fields
  /// (TermOutput::global_column): the scalar sums its kernels add up.
  /// Throws std::invalid_argument for no fields or more than kMaxFields, a shape that names a field
  /// the scheme does not have, a multiplier field for an element that is not a constraint, or a
  /// block outside its fields. distribution: the processes that assemble the system together
  /// (must outlive this; nullptr for one process): the assembler then plans the terms this process
  /// owns (those whose smallest coordinate lies in a block of this process, block_processes in
  /// engine/partition.hpp), while terms() lists them all.
  TermLayout(const System& system, std::vector<FieldKind> fields,
             const std::array<std::vector<TermShape>, kTermKinds>& shapes, int workspace_slots, int global_sums = 0,
             const Distribution* distribution = nullptr);

  const System& system() const { return system_; }
  std::span<const TermRef> terms() const { return terms_; }
  /// Entries of the unknown vector (natural and Newton order alike).
  Index size() const { return static_cast<Index>(position_.size()); }
  /// First entry of field f in natural order; f's entries are d or m consecutive ones.
  Index field_offset(int field) const { return field_offsets_[static_cast<std::size_t>(field)]; }
  FieldKind field_kind(int field) const { return fields_[static_cast<std::size_t>(field)]; }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  /// The field of natural entry i and the index within it (a coordinate or a multiplier row).
  std::pair<int, Index> field_of(Index i) const;

  const CscPattern& pattern() const { return assembler_.pattern(); }
  /// Over several processes, the process whose terms alone touch each unknown (Newton order), or
  /// kSharedUnknown (divide_unknowns, engine/partition.hpp); empty in one process.
  std::span<const int> unknown_owners() const { return unknown_owners_; }
  Assembler& assembler() { return assembler_; }
  const Assembler& assembler() const { return assembler_; }

  /// The natural index of Newton entry i.
  Index natural_index(Index i) const { return natural_[static_cast<std::size_t>(i)]; }
  /// newton[position(i)] = natural[i], and back (size() each).
  void to_newton_order(ConstVectorRef natural, VectorRef newton) const;
  void to_natural_order(ConstVectorRef newton, VectorRef natural) const;

  /// "constraint 'P4'": the element behind term t.
  std::string owner(Index term) const;
  const ShapeTable& shape(const TermRef& ref) const { return shapes_[static_cast<std::size_t>(ref.shape)]; }
  std::span<const DofRun> runs(const TermRef& ref) const {
    return {runs_.data() + ref.runs_begin, runs_.data() + ref.runs_end};
  }
  TermWorkspace workspace(const UnitOutput& out) const { return {out.workspace(), slot_size_}; }
  /// Doubles per workspace slot: the largest n, m or n x m of any term.
  Index slot_size() const { return slot_size_; }
  /// The exact forms, copied once into shared storage (alike elements share one copy).
  const SparseEntries* mass(Index inertia) const { return entry(masses_, inertia); }
  const QuadraticFormView* potential_form(Index potential) const { return entry(potential_forms_, potential); }
  const QuadraticFormView* constraint_form(Index constraint) const { return entry(constraint_forms_, constraint); }

 private:
  template <class T>
  static const T* entry(const std::vector<std::optional<T>>& list, Index i) {
    const std::optional<T>& e = list[static_cast<std::size_t>(i)];
    return e ? &*e : nullptr;
  }
  /// An element as the plan reads it: the element, its dofs, and for constraints its rows.
  struct PlacedView {
    const Element* element;
    const std::vector<Index>* dofs;
    Index equations = 0, first_multiplier = 0;
  };
  static std::vector<PlacedView> placed_of(const System& system, TermKind kind);
  /// The index of the shape's table in shapes_, added when new; refusals name `element`.
  Index add_shape(const TermShape& shape, TermKind kind, const Element& element);
  void copy_forms();
  Assembler make_assembler(const std::array<std::vector<TermShape>, kTermKinds>& shapes, int workspace_slots, int global_sums,
                           const Distribution* distribution);
  UnitLayout unit_layout(const TermRef& ref, const TermShape& shape, const PlacedView& placed) const;
  /// The term's unknowns as divide_unknowns reads them, `owner` its process.
  TermUnknowns term_unknowns(const TermRef& ref, const TermShape& shape, const PlacedView& placed, int owner) const;

  const System& system_;
  std::vector<FieldKind> fields_;
  std::vector<Index> field_offsets_;
  std::vector<Index> position_;  ///< natural index -> Newton index
  std::vector<Index> natural_;   ///< Newton index -> natural index
  std::vector<TermRef> terms_;   ///< in visiting order of their smallest coordinate
  std::vector<DofRun> runs_;
  std::vector<ShapeTable> shapes_;
  Index slot_size_ = 0;
  Arena arena_;
  std::vector<std::optional<SparseEntries>> masses_;
  std::vector<std::optional<QuadraticFormView>> potential_forms_, constraint_forms_;
  std::vector<int> unknown_owners_;  ///< over several processes (unknown_owners), made with the assembler
  Assembler assembler_;
};

template <class E>
template <class X>
LocalVector Term<E>::coordinates(const X& x, int slot) const {
  const double* global = x.data();
  if (runs_.size() == 1) return {global + runs_[0].first, size()};
  double* local = workspace_.vector(slot, size()).data();
  for (const DofRun& run : runs_) local = std::copy_n(global + run.first, run.size, local);
  return {local - size(), size()};
}

template <class E>
LocalVector Term<E>::midpoint(const LocalVector& a, const LocalVector& b, int slot) const {
  Eigen::Map<Vector> mid = workspace_.vector(slot, size());
  mid = 0.5 * (a + b);
  return {mid.data(), size()};
}

template <class E>
void Term<E>::add_at_coordinates(ConstVectorRef local, VectorRef global) const {
  Index offset = 0;
  for (const DofRun& run : runs_) {
    global.segment(run.first, run.size) += local.segment(offset, run.size);
    offset += run.size;
  }
}

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
///   double work(const DissipationTerm&, const Iterate&) const;
///   double work(const LoadTerm&, const Iterate&) const;
///                                                       the discrete work W of the element over the
///                                                       step at `it` (SchemeAssembly::work)
/// A scheme may give a work kernel to any other kind of term that does work on the system (a
/// driven constraint's reaction): SchemeAssembly::work sums every kernel the scheme has, so a new
/// one enters the step's work without a change elsewhere.
/// Actuators are optional (SchemeTakesActuators): a scheme takes them with a shape, an evaluate
/// and a work kernel for Actuator; without them its stepper refuses a system that has one.
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
    } &&
    requires {
      static_cast<double (S::*)(const DissipationTerm&, const typename S::Iterate&) const>(&S::work);
      static_cast<double (S::*)(const LoadTerm&, const typename S::Iterate&) const>(&S::work);
    };

/// The scheme has the kernels of actuators: shape(const Actuator&), evaluate and work of an ActuatorTerm.
template <class S>
concept SchemeTakesActuators = requires(const S& s, const Actuator& a, const ActuatorTerm& term,
                                        const typename S::Iterate& it, TermOutput& out) {
  { s.shape(a) } -> std::same_as<TermShape>;
  s.evaluate(term, it, out);
  { s.work(term, it) } -> std::same_as<double>;
};

template <class Scheme>
class SchemeAssembly {
 public:
  using Iterate = typename Scheme::Iterate;

  /// Plans the scheme's terms on `system` (both must outlive this); global_sums > 0 for a scheme
  /// with a global unknown, whose kernels add up that many sums; distribution: the processes that
  /// assemble it together, nullptr for one (TermLayout).
  SchemeAssembly(const System& system, const Scheme& scheme, int global_sums = 0,
                 const Distribution* distribution = nullptr)
      : scheme_(scheme),
        layout_(system, std::vector<FieldKind>(Scheme::fields.begin(), Scheme::fields.end()), shapes(system, scheme),
                Scheme::workspace_slots, global_sums, distribution) {
    static_assert(AssemblyScheme<Scheme>, "a scheme's fields, workspace_slots, Iterate, shape and evaluate for "
                                          "every element kind, and work for dampers and loads "
                                          "(engine/scheme_assembly.hpp)");
    for (const TermRef& ref : layout_.terms()) has_work_terms_ = has_work_terms_ || term_does_work(ref);
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

  /// W, the discrete work done on the system over the step at `it` (a solution): the sum of the
  /// scheme's work kernels, Scheme::work(term, it), over the terms of every kind it has one for
  /// (dampers and loads; any other kind to which it gives one), in layout order (serial: the same
  /// bits on any number of threads and processes). 0 when no term has one.
  double work(const Iterate& it) const;
  /// Some term has a work kernel: work() may differ from 0 (the stepper skips it otherwise).
  bool has_work_terms() const { return has_work_terms_; }

 private:
  static std::array<std::vector<TermShape>, kTermKinds> shapes(const System& system, const Scheme& scheme) {
    std::array<std::vector<TermShape>, kTermKinds> out;
    const auto add = [&](TermKind kind, auto list) {
      for (const auto& e : list) out[static_cast<std::size_t>(kind)].push_back(scheme.shape(*e.element));
    };
    add(TermKind::inertia, system.inertias());
    add(TermKind::potential, system.potentials());
    add(TermKind::constraint, system.constraints());
    add(TermKind::dissipation, system.dissipations());
    add(TermKind::load, system.external_loads());
    if constexpr (SchemeTakesActuators<Scheme>) add(TermKind::actuator, system.actuators());
    else out[static_cast<std::size_t>(TermKind::actuator)].resize(system.actuators().size());  // left out
    return out;
  }

  /// The scheme has a work kernel for terms of type T (AssemblyScheme).
  template <class T>
  static constexpr bool has_work = requires(const Scheme& s, const T& term, const Iterate& it) { s.work(term, it); };

  static constexpr bool kind_does_work(TermKind kind) {
    switch (kind) {
      case TermKind::inertia: return has_work<InertiaTerm>;
      case TermKind::potential: return has_work<PotentialTerm>;
      case TermKind::constraint: return has_work<ConstraintTerm>;
      case TermKind::dissipation:
      case TermKind::load: return true;
      case TermKind::actuator: return SchemeTakesActuators<Scheme>;
    }
    return false;
  }

  /// The scheme has a work kernel for the term, and the term can do work: a constraint only when
  /// rheonomic (a scleronomic one's reaction does none, so its kernel gives 0).
  bool term_does_work(const TermRef& ref) const {
    if (ref.kind != TermKind::constraint) return kind_does_work(ref.kind);
    return kind_does_work(ref.kind) &&
           layout_.system().constraints()[static_cast<std::size_t>(ref.element)].element->rheonomic();
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
      case TermKind::actuator: return f(ActuatorTerm(system.actuators()[i], ref, runs, workspace));
    }
  }

  /// One function per term with the kernels inlined into it (flatten), so that a term's view is
  /// built in registers, as a hand-written switch over the kinds would have it; without it the
  /// views pass through memory to the out-of-line kernels (docs/notebook.md, "Scheme kernels").
  [[gnu::flatten, gnu::noinline]] void evaluate(Index unit, const Iterate& it, UnitOutput& out) const {
    const TermRef& ref = layout_.terms()[static_cast<std::size_t>(unit)];
    TermOutput term_out(out, layout_.shape(ref), ref);
    visit(ref, layout_.workspace(out), [&](const auto& term) {
      if constexpr (requires { scheme_.evaluate(term, it, term_out); }) scheme_.evaluate(term, it, term_out);
    });
  }

  const Scheme& scheme_;
  TermLayout layout_;
  bool has_work_terms_ = false;
};

template <class Scheme>
double SchemeAssembly<Scheme>::work(const Iterate& it) const {
  double total = 0.0;
  const auto add = [&](const auto& term) {
    if constexpr (requires { scheme_.work(term, it); }) total += scheme_.work(term, it);
  };
  if constexpr (has_work<InertiaTerm>) for_each(TermKind::inertia, add);
  if constexpr (has_work<PotentialTerm>) for_each(TermKind::potential, add);
  if constexpr (has_work<ConstraintTerm>) for_each(TermKind::constraint, add);
  for_each(TermKind::dissipation, add);
  for_each(TermKind::load, add);
  if constexpr (SchemeTakesActuators<Scheme>) for_each(TermKind::actuator, add);
  return total;
}

template <class Scheme>
template <class F>
void SchemeAssembly<Scheme>::for_each(TermKind kind, F&& f) const {
  std::vector<double> memory(static_cast<std::size_t>(Scheme::workspace_slots * layout_.slot_size()));
  const TermWorkspace workspace(memory, layout_.slot_size());
  for (const TermRef& ref : layout_.terms())
    if (ref.kind == kind) visit(ref, workspace, f);
}

}  // namespace noether
