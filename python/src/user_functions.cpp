#include "user_functions.hpp"

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <noether/apps/model/model.hpp>
#include <noether/engine/callback_result.hpp>
#include <noether/engine/external_load.hpp>
#include <noether/engine/quote.hpp>
#include <noether/joints/function_potential.hpp>

namespace noether::python {
namespace {

/// A Python callable that C++ may copy and destroy without the GIL: the reference is released
/// under the GIL, once, by the last copy.
class Callable {
 public:
  explicit Callable(py::function f)
      : f_(new py::function(std::move(f)), [](py::function* p) {
          py::gil_scoped_acquire locked;
          delete p;
        }) {}

  /// f(args...) under the GIL, each argument made a Python object there (a vector a new array:
  /// the engine's may be a thread's scratch, reused after the call), the result converted to T
  /// (a Python exception propagates).
  template <class T, class... Args>
  T call(const Args&... args) const {
    py::gil_scoped_acquire locked;
    return (*f_)(to_python(args)...).template cast<T>();
  }

 private:
  static py::object to_python(ConstVectorRef q) { return py::array_t<double>(q.size(), q.data()); }
  static py::object to_python(double t) { return py::float_(t); }

  std::shared_ptr<py::function> f_;
};

/// The central difference of f (R^n -> R^m) at x: the m x n matrix of df/dx_j.
template <class F>
Matrix central_difference(const F& f, ConstVectorRef x, Index m) {
  Matrix d(m, x.size());
  Vector shifted = x;
  for (Index j = 0; j < x.size(); ++j) {
    const double step = central_difference_step(x(j));
    shifted(j) = x(j) + step;
    const Vector plus = f(shifted);
    shifted(j) = x(j) - step;
    d.col(j) = (plus - f(shifted)) / (2 * step);
    shifted(j) = x(j);
  }
  return d;
}

/// The blocks of the named bodies (a body's block has its name) and the size of their concatenation.
std::pair<std::vector<BlockId>, Index> blocks_of(const System& system, const std::string& what,
                                                 const std::vector<std::string>& bodies) {
  if (bodies.empty()) throw std::invalid_argument(what + ": name the bodies whose coordinates it acts on");
  std::vector<BlockId> blocks;
  Index size = 0;
  for (const std::string& body : bodies) {
    try {
      blocks.push_back(system.find_block(body));
    } catch (const std::out_of_range&) {
      throw std::invalid_argument(what + ": no body named " + quote(body) +
                                  " (Model.coordinate_labels gives each body's coordinates as <body>.<coordinate>)");
    }
    size += system.block(blocks.back()).size();
  }
  return {std::move(blocks), size};
}

std::optional<Callable> optional_callable(const py::object& f) {
  if (f.is_none()) return std::nullopt;
  return Callable(f.cast<py::function>());
}

Nonlinearity parse_nonlinearity(const std::string& text) {
  if (text == "general") return Nonlinearity::general;
  if (text == "quadratic") return Nonlinearity::quadratic;
  if (text == "linear") return Nonlinearity::linear;
  throw std::invalid_argument("nonlinearity expects general, quadratic or linear, got " + quote(text));
}

/// V, its gradient and Hessian from Python: those not given by central differences.
PotentialFunction potential_function(const std::string& name, Index n, Callable energy,
                                     const std::optional<Callable>& gradient, const std::optional<Callable>& hessian,
                                     Nonlinearity nonlinearity) {
  PotentialFunction f;
  f.nonlinearity = nonlinearity;
  f.energy = [energy](ConstVectorRef q) { return energy.call<double>(q); };
  if (gradient) {
    f.gradient = [g = *gradient](ConstVectorRef q) { return g.call<Vector>(q); };
  } else {
    f.gradient = [of = f.energy](ConstVectorRef q) -> Vector {
      const auto value = [&](ConstVectorRef x) { return Vector::Constant(1, of(x)); };
      return central_difference(value, q, 1).row(0).transpose();
    };
  }
  if (hessian) {
    f.hessian = [h = *hessian](ConstVectorRef q) { return h.call<Matrix>(q); };
  } else {
    f.hessian = [of = f.gradient, name, n](ConstVectorRef q) -> Matrix {
      const auto checked = [&](ConstVectorRef x) {
        return Vector(checked_result({"potential", name, "gradient"}, of(x), n));
      };
      const Matrix d = central_difference(checked, q, n);
      return 0.5 * (d + d.transpose());  // D^2 V is symmetric; the difference is so to its error
    };
  }
  return f;
}

/// A generalized force f(t, q) written in Python, with its Jacobian df/dq (given, or a central
/// difference of f); depends_on_configuration false: f(t) alone, no Jacobian.
class PythonLoad final : public ExternalLoad {
 public:
  PythonLoad(std::string name, std::vector<BlockId> blocks, Index size, Callable force,
             std::optional<Callable> jacobian, bool depends_on_q)
      : ExternalLoad(std::move(name), std::move(blocks)),
        size_(size),
        force_(std::move(force)),
        jacobian_(std::move(jacobian)),
        depends_on_q_(depends_on_q) {}

  Index local_size() const override { return size_; }
  bool depends_on_configuration() const override { return depends_on_q_; }

 protected:
  void do_add_generalized_force(double t, ConstVectorRef q, double s, VectorRef f) const override {
    f += s * force(t, q);
  }
  void do_add_generalized_force_q_jacobian(double t, ConstVectorRef q, double s, MatrixRef K) const override {
    if (jacobian_) {
      K += s * checked_result({"load", name(), "jacobian"}, jacobian_->call<Matrix>(t, q), size_, size_);
      return;
    }
    K += s * central_difference([&](ConstVectorRef x) { return force(t, x); }, q, size_);
  }

 private:
  Vector force(double t, ConstVectorRef q) const {
    return checked_result({"load", name(), "force"}, force_.call<Vector>(t, q), size_);
  }

  Index size_;
  Callable force_;
  std::optional<Callable> jacobian_;
  bool depends_on_q_;
};

}  // namespace

double central_difference_step(double x) {
  return std::cbrt(std::numeric_limits<double>::epsilon()) * (1.0 + std::abs(x));
}

void bind_user_functions(ModelClass& model) {
  model.def(
      "add_potential",
      [](Model& self, const std::string& name, const std::vector<std::string>& bodies, const py::function& energy,
         const py::object& gradient, const py::object& hessian, const std::string& nonlinearity) {
        const auto [blocks, n] = blocks_of(*self.system, "potential " + quote(name), bodies);
        self.system->add(std::make_shared<FunctionPotential>(
            name, blocks, n,
            potential_function(name, n, Callable(energy), optional_callable(gradient), optional_callable(hessian),
                               parse_nonlinearity(nonlinearity))));
      },
      py::arg("name"), py::arg("bodies"), py::arg("energy"), py::arg("gradient") = py::none(),
      py::arg("hessian") = py::none(), py::arg("nonlinearity") = "general",
      "A potential V(q) over the coordinates of the named bodies, concatenated (q as a numpy array): energy(q) -> "
      "float, gradient(q) -> n, hessian(q) -> n x n; a derivative not given is a central difference "
      "(docs/python.md). nonlinearity 'linear' or 'quadratic' declares V a polynomial of that degree. Add "
      "before making a Stepper on the model.");
  model.def(
      "add_load",
      [](Model& self, const std::string& name, const std::vector<std::string>& bodies, const py::function& force,
         const py::object& jacobian, bool depends_on_q) {
        const auto [blocks, n] = blocks_of(*self.system, "load " + quote(name), bodies);
        self.system->add(std::make_shared<PythonLoad>(name, blocks, n, Callable(force), optional_callable(jacobian),
                                                      depends_on_q));
      },
      py::arg("name"), py::arg("bodies"), py::arg("force"), py::arg("jacobian") = py::none(),
      py::arg("depends_on_q") = true,
      "A generalized force f(t, q) on the coordinates of the named bodies, concatenated: force(t, q) -> n, "
      "jacobian(t, q) -> n x n (df/dq; a central difference when not given); depends_on_q=False for a force of "
      "time alone (no Jacobian). Its work enters the energy balance. Add before making a Stepper on the model.");
}

}  // namespace noether::python
