#include "solvers/step_predictor.hpp"

#include <utility>

namespace noether {

bool StepPredictor::continues_last_step(const State& state, double h) const {
  return recorded_ && h == h_ && state.step == step_ && state.t == t_ && state.v.size() == result_v_.size() &&
         state.lambda.size() == result_lambda_.size() && state.v == result_v_ && state.lambda == result_lambda_;
}

StepGuess StepPredictor::predict(const State& state, double h) const {
  if (!continues_last_step(state, h)) return {state.v, state.lambda};
  if (!recorded_two_) return {2.0 * state.v - start_v_, 2.0 * state.lambda - start_lambda_};
  return {3.0 * (state.v - start_v_) + earlier_v_, 3.0 * (state.lambda - start_lambda_) + earlier_lambda_};
}

void StepPredictor::record(const State& before, const State& after, double h) {
  recorded_two_ = continues_last_step(before, h);
  if (recorded_two_) {
    std::swap(earlier_v_, start_v_);
    std::swap(earlier_lambda_, start_lambda_);
  }
  recorded_ = true;
  h_ = h;
  step_ = after.step;
  t_ = after.t;
  start_v_ = before.v;
  start_lambda_ = before.lambda;
  result_v_ = after.v;
  result_lambda_ = after.lambda;
}

}  // namespace noether
