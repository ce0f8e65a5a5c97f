#include <noether/steppers/step_predictor.hpp>

#include <utility>

namespace noether {
namespace {

/// The next sample of a sequence extrapolated from its last `samples` samples f_0, f_{-1}, f_{-2}
/// (at most 3 used; f_{-1}, f_{-2} read only when needed).
Vector extrapolate(int samples, const Vector& f0, const Vector& f1, const Vector& f2) {
  if (samples >= 3) return 3.0 * (f0 - f1) + f2;
  if (samples == 2) return 2.0 * f0 - f1;
  return f0;
}

}  // namespace

bool StepPredictor::continues_last_step(const State& state, double h) const {
  return followed_steps_ > 0 && h == h_ && state.step == step_ && state.t == t_ &&
         state.v.size() == result_v_.size() && state.lambda.size() == result_lambda_.size() &&
         state.v == result_v_ && state.lambda == result_lambda_;
}

StepGuess StepPredictor::predict(const State& state, double h) const {
  if (!continues_last_step(state, h)) return {state.v, state.lambda};
  return {extrapolate(followed_steps_ + 1, state.v, start_v_, earlier_v_),
          extrapolate(followed_steps_, state.lambda, start_lambda_, earlier_lambda_)};
}

void StepPredictor::record(const State& before, const State& after, double h) {
  if (continues_last_step(before, h)) {
    ++followed_steps_;
    std::swap(earlier_v_, start_v_);
    std::swap(earlier_lambda_, start_lambda_);
  } else {
    followed_steps_ = 1;
  }
  h_ = h;
  step_ = after.step;
  t_ = after.t;
  start_v_ = before.v;
  start_lambda_ = before.lambda;
  result_v_ = after.v;
  result_lambda_ = after.lambda;
}

}  // namespace noether
