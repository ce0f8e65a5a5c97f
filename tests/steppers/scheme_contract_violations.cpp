/// The scheme contract (steppers/scheme_contract.hpp) checked at compile time: a scheme that meets it
/// (this file as it stands, compiled with the tests) and the same scheme broken in one way each,
/// selected by NOETHER_VIOLATION_<name>, which must not compile (tests/CMakeLists.txt expects each
/// compiler run to fail with the message of the part it breaks). The scheme declares what the
/// contract names and defines nothing: the file is compiled, never linked.
#include <noether/steppers/scheme_stepper_impl.hpp>

namespace noether {

struct ContractScheme {
  static constexpr std::string_view name = "contract";
  enum Field { dq };
  static constexpr std::array fields{FieldKind::coordinates};
  static constexpr int workspace_slots = 0;
#if defined(NOETHER_VIOLATION_misspelled_trait)
  static constexpr SchemeTraits traits{.order = 2, .adaptive_steps = true};
#elif defined(NOETHER_VIOLATION_trait_outside_traits)
  static constexpr SchemeTraits traits{.order = 2};
  static constexpr bool estimates_condition = true;
#elif defined(NOETHER_VIOLATION_rejection_signature)
  static constexpr SchemeTraits traits{.order = 2, .rejects_solutions = true};
  std::string rejection(const State& state) const;  // not (const StepInput&, ConstVectorRef)
#elif defined(NOETHER_VIOLATION_undeclared_rejection)
  static constexpr SchemeTraits traits{.order = 2};
  std::string rejection(const StepInput& in, ConstVectorRef x) const;
#elif defined(NOETHER_VIOLATION_global_unknown_without_equation)
  static constexpr SchemeTraits traits{.order = 2, .global_sums = 1};
#else
  static constexpr SchemeTraits traits{.order = 2};
#endif

  struct Data {};
  struct Iterate {};

  ContractScheme(const System& system, const StepperOptions& options);
  Iterate iterate(const StepInput& in, ConstVectorRef x, Data& data) const;
  void add_step_rows(const StepInput& in, VectorRef rows) const;
  Vector initial_guess(const StepInput& in, const StepGuess& guess) const;
  State next_state(const StepInput& in, ConstVectorRef x, const SchemeAssembly<ContractScheme>& assembly) const;
  double conserved_energy(const State& state) const;
  std::string row_label(int field, Index i) const;

  TermShape shape(const Inertia& e) const;
  TermShape shape(const Potential& e) const;
  TermShape shape(const Constraint& e) const;
  TermShape shape(const Dissipation& e) const;
  TermShape shape(const ExternalLoad& e) const;

  void evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const;
#if defined(NOETHER_VIOLATION_kernel_signature)
  void evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out);  // not const
#else
  void evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const;
#endif
  double work(const DissipationTerm& t, const Iterate& it) const;
#if !defined(NOETHER_VIOLATION_missing_work)
  double work(const LoadTerm& t, const Iterate& it) const;
#endif
};

template class SchemeStepper<ContractScheme>;

}  // namespace noether
