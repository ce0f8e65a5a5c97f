#pragma once
/// The contract of a scheme, checked: what SchemeStepper needs of a scheme struct, as concepts that
/// SchemeStepper<Scheme>::traits() asserts where the scheme's source file instantiates it
/// (`template class SchemeStepper<MyScheme>;`). A member missing, misspelled or of another type
/// fails to compile there, with the message of the part it breaks; an optional member is present
/// exactly when the scheme's traits say so (a rejection without rejects_solutions, say, is an error,
/// not a feature silently off).
#include <concepts>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include <noether/engine/scheme_assembly.hpp>
#include <noether/steppers/scheme_stepper.hpp>
#include <noether/steppers/step_predictor.hpp>

namespace noether {

/// What every scheme declares, beyond its kernels (AssemblyScheme, engine/scheme_assembly.hpp):
///   static constexpr std::string_view name;          the stepper's name (`noether list`, refusals)
///   static constexpr SchemeTraits traits{...};       its traits (steppers/scheme_stepper.hpp), set
///                                                    by designated initializers; order >= 1
///   Scheme(const System&, const StepperOptions&);   refuses (StepperRefusal) what it cannot treat
///   struct Data;                                     per-step vectors its Iterate views
///   Iterate iterate(const StepInput&, ConstVectorRef x, Data&) const;
///   void add_step_rows(const StepInput&, VectorRef rows) const;
///                                    rows no element owns, constant during the step (natural order)
///   Vector initial_guess(const StepInput&, const StepGuess&) const;  x (natural order)
///   double conserved_energy(const State&) const;
///   std::string row_label(int field, Index i) const; what row i of a field balances
/// and no member named as a trait (warm_start, conserves_energy, adaptive_step, estimates_condition,
/// rejects_solutions, global_sums, or border_sums, the global sums' other name): a trait is declared
/// in traits, where its name and type are checked, and a member of that name would be ignored.
template <class S>
concept SchemeDeclarations =
    std::same_as<decltype(S::name), const std::string_view> && std::same_as<decltype(S::traits), const SchemeTraits> &&
    (S::traits.order >= 1) && (S::traits.global_sums >= 0) &&
    !requires { S::warm_start; } && !requires { S::conserves_energy; } && !requires { S::adaptive_step; } &&
    !requires { S::estimates_condition; } && !requires { S::rejects_solutions; } && !requires { S::global_sums; } &&
    !requires { S::border_sums; } &&
    std::constructible_from<S, const System&, const StepperOptions&> &&
    std::default_initializable<typename S::Data> &&
    requires {
      static_cast<typename S::Iterate (S::*)(const StepInput&, ConstVectorRef, typename S::Data&) const>(&S::iterate);
      static_cast<void (S::*)(const StepInput&, VectorRef) const>(&S::add_step_rows);
      static_cast<Vector (S::*)(const StepInput&, const StepGuess&) const>(&S::initial_guess);
      static_cast<double (S::*)(const State&) const>(&S::conserved_energy);
      static_cast<std::string (S::*)(int, Index) const>(&S::row_label);
    };

/// A scheme with one global unknown s beyond its fields (traits.global_sums > 0) has x = (fields, s)
/// in natural order (one entry more) and provides
///   GlobalEquation global_equation(const StepInput&, double s, std::span<const double> sums) const;
///                                    s's row from the sums its kernels added up
///   std::string global_label() const;  what that row balances
///   State next_state(const StepInput&, ConstVectorRef x, const SchemeAssembly<Scheme>&,
///                    std::span<const double> sums) const;   the sums at the solution
/// any other scheme only
///   State next_state(const StepInput&, ConstVectorRef x, const SchemeAssembly<Scheme>&) const;
/// An adaptive step (traits.adaptive_step) is the global unknown s.
template <class S>
concept SchemeGlobalUnknown =
    (S::traits.global_sums > 0 &&
     requires {
       static_cast<GlobalEquation (S::*)(const StepInput&, double, std::span<const double>) const>(&S::global_equation);
       static_cast<std::string (S::*)() const>(&S::global_label);
       static_cast<State (S::*)(const StepInput&, ConstVectorRef, const SchemeAssembly<S>&, std::span<const double>)
                       const>(&S::next_state);
     }) ||
    (S::traits.global_sums == 0 && !S::traits.adaptive_step && !requires { &S::global_equation; } &&
     !requires { &S::global_label; } &&
     requires {
       static_cast<State (S::*)(const StepInput&, ConstVectorRef, const SchemeAssembly<S>&) const>(&S::next_state);
     });

/// A scheme with traits.rejects_solutions provides
///   std::string rejection(const StepInput&, ConstVectorRef x) const;
///                                    why a converged x cannot be taken ("" when it can)
/// and any other scheme no member named rejection.
template <class S>
concept SchemeRejection =
    (S::traits.rejects_solutions &&
     requires { static_cast<std::string (S::*)(const StepInput&, ConstVectorRef) const>(&S::rejection); }) ||
    (!S::traits.rejects_solutions && !requires { &S::rejection; });

/// A scheme as SchemeStepper steps it.
template <class S>
concept StepperScheme = AssemblyScheme<S> && SchemeDeclarations<S> && SchemeGlobalUnknown<S> && SchemeRejection<S>;

}  // namespace noether
