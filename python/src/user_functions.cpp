#include "user_functions.hpp"

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <noether/apps/model/model.hpp>
#include <noether/engine/callback_result.hpp>
#include <noether/engine/external_load.hpp>
#include <noether/engine/quote.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/joints/joint_actuator.hpp>

namespace noether::python {
namespace {

/// A result of a Python function, described for an error: None, a numpy array by its shape and
/// dtype, anything else by its repr (shortened) and type ("'oops' (a str)", "[[1, 2], [3]] (a list)").
std::string described(const py::handle& result) {
  if (result.is_none()) return "None";
  if (py::isinstance<py::array>(result)) {
    const auto array = py::reinterpret_borrow<py::array>(result);
    return "a numpy array of shape " + std::string(py::str(array.attr("shape"))) + " and dtype " +
           std::string(py::str(array.dtype()));
  }
  std::string text;
  try {
    text = py::repr(result);
  } catch (const py::error_already_set&) {
    text = "an object whose repr fails";
  }
  constexpr std::size_t kLongest = 60;
  if (text.size() > kLongest) {
    std::size_t cut = kLongest - 3;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    text = text.substr(0, cut) + "...";
  }
  return text + " (a " + std::string(py::str(result.get_type().attr("__name__"))) + ")";
}

/// result as a numpy array when it is one of numbers (booleans, integers, reals), else a null
/// object: for a text, None, a ragged list, an array of texts or objects (which numpy's cast would
/// read as numbers or NaN).
py::object numeric_array(const py::handle& result) {
  py::array array = py::array::ensure(result);
  if (!array) return {};
  const char kind = array.dtype().kind();
  if (kind == 'b' || kind == 'i' || kind == 'u' || kind == 'f') return array;
  return {};
}

/// A Python callable that C++ may copy and destroy without the GIL: the reference is released
/// under the GIL, once, by the last copy. `function` names it in errors ("potential 'spring':
/// gradient"), `expected` says what it must return ("an array of 2 numbers").
class Callable {
 public:
  Callable(py::function f, std::string function, std::string expected)
      : f_(new py::function(std::move(f)), [](py::function* p) {
          py::gil_scoped_acquire locked;
          delete p;
        }),
        function_(std::move(function)),
        expected_(std::move(expected)) {}

  /// f(args...) under the GIL, each argument made a Python object there (a vector a new array:
  /// the engine's may be a thread's scratch, reused after the call), the result converted to T
  /// (a Python exception propagates; a result that does not convert is refused by refuse_result).
  template <class T, class... Args>
  T call(const Args&... args) const {
    py::gil_scoped_acquire locked;
    return converted<T>((*f_)(to_python(args)...));
  }

 private:
  static py::object to_python(ConstVectorRef q) { return py::array_t<double>(q.size(), q.data()); }
  static py::object to_python(double t) { return py::float_(t); }

  /// A number (float, int, numpy scalar) or a pair of them as pybind11 converts them; a vector or
  /// matrix from an array of numbers only (numpy would read texts and None as numbers or NaN).
  template <class T>
  T converted(const py::object& result) const {
    constexpr bool is_array = std::is_same_v<T, Vector> || std::is_same_v<T, Matrix>;
    const py::object numbers = is_array ? numeric_array(result) : result;
    if (!numbers) refuse_result(result);
    try {
      return numbers.cast<T>();
    } catch (const py::cast_error&) {
      refuse_result(result);
    }
  }

  /// Throws for a result that did not convert, naming the function, the result and what is
  /// expected: ValueError for numbers of the wrong shape, TypeError for what is no array of numbers.
  [[noreturn]] void refuse_result(const py::object& result) const {
    const std::string message = function_ + " returned " + described(result) + ", expected " + expected_;
    if (numeric_array(result)) throw std::invalid_argument(message);
    throw py::type_error(message);
  }

  std::shared_ptr<py::function> f_;
  std::string function_, expected_;
};

/// What a function of n coordinates returns, as Callable's errors say it.
std::string numbers(Index n) { return "an array of " + std::to_string(n) + " numbers"; }
std::string square_matrix(Index n) {
  return "a " + std::to_string(n) + " x " + std::to_string(n) + " array of numbers";
}
constexpr const char* kNumber = "a number";
constexpr const char* kPairOfNumbers = "a pair of numbers (du/dx, du/dx_dot)";

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

std::optional<Callable> optional_callable(const py::object& f, std::string function, std::string expected) {
  if (f.is_none()) return std::nullopt;
  return Callable(f.cast<py::function>(), std::move(function), std::move(expected));
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

/// The body named `name` as joints see it: its block and kinematics, read from its coordinates'
/// names (BodyKinematics::coordinate_names, as Mechanism lays its bodies out).
BodyRef body_ref(const System& system, const std::string& name, const std::string& what) {
  BlockId block;
  try {
    block = system.find_block(name);
  } catch (const std::out_of_range&) {
    throw std::invalid_argument(what + ": no body named " + quote(name));
  }
  for (const BodyKind kind :
       {BodyKind::director3d, BodyKind::planar_director, BodyKind::point_mass3d, BodyKind::point_mass2d}) {
    const BodyKinematics kinematics(kind);
    if (system.block(block).coordinate_names == kinematics.coordinate_names()) return {block, kinematics, name};
  }
  throw std::invalid_argument(what + ": body " + quote(name) +
                              " is not a director body or a Cartesian point mass; an actuator needs one");
}

Vector or_empty(const std::optional<Vector>& v) { return v ? *v : Vector(); }

/// The actuator law of a Python u(t, x, x_dot) -> float, with derivatives(t, x, x_dot) -> (du/dx,
/// du/dx_dot) when given, else by central differences (finite_difference_law).
ActuatorLaw python_law(const std::string& owner, Callable law, const std::optional<Callable>& derivatives) {
  if (!derivatives)
    return finite_difference_law([law](double t, double x, double rate) { return law.call<double>(t, x, rate); },
                                 owner);
  return [law, d = *derivatives](double t, double x, double rate) {
    const auto [d_position, d_rate] = d.call<std::pair<double, double>>(t, x, rate);
    return ActuatorJet{law.call<double>(t, x, rate), d_position, d_rate};
  };
}

}  // namespace

double central_difference_step(double x) {
  return std::cbrt(std::numeric_limits<double>::epsilon()) * (1.0 + std::abs(x));
}

void bind_user_functions(ModelClass& model) {
  model.def(
      "add_potential",
      [](Model& self, const std::string& name, const std::vector<std::string>& bodies, const py::function& energy,
         const py::object& gradient, const py::object& hessian, const std::string& nonlinearity) {
        const std::string owner = "potential " + quote(name);
        const auto [blocks, n] = blocks_of(*self.system, owner, bodies);
        self.system->add(std::make_shared<FunctionPotential>(
            name, blocks, n,
            potential_function(name, n, Callable(energy, owner + ": energy", kNumber),
                               optional_callable(gradient, owner + ": gradient", numbers(n)),
                               optional_callable(hessian, owner + ": hessian", square_matrix(n)),
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
        const std::string owner = "load " + quote(name);
        const auto [blocks, n] = blocks_of(*self.system, owner, bodies);
        self.system->add(std::make_shared<PythonLoad>(
            name, blocks, n, Callable(force, owner + ": force", numbers(n)),
            optional_callable(jacobian, owner + ": jacobian", square_matrix(n)), depends_on_q));
      },
      py::arg("name"), py::arg("bodies"), py::arg("force"), py::arg("jacobian") = py::none(),
      py::arg("depends_on_q") = true,
      "A generalized force f(t, q) on the coordinates of the named bodies, concatenated: force(t, q) -> n, "
      "jacobian(t, q) -> n x n (df/dq; a central difference when not given); depends_on_q=False for a force of "
      "time alone (no Jacobian). Its work enters the energy balance. Add before making a Stepper on the model.");
  model.def(
      "add_actuator",
      [](Model& self, const std::string& name, const std::string& type, const py::function& law,
         const std::string& body_b, const py::object& derivatives, const std::string& body_a,
         const std::optional<Vector>& u_a, const std::optional<Vector>& w_a, const std::optional<Vector>& u_b,
         double zero_angle, const std::optional<Vector>& point_a, const std::optional<Vector>& axis_a,
         const std::optional<Vector>& point_b) {
        const std::string owner = "actuator " + quote(name);
        const BodyRef b = body_ref(*self.system, body_b, owner);
        const Index dim = b.kinematics.dimension();
        const auto point = [&](const std::optional<Vector>& p) { return p ? *p : Vector(Vector::Zero(dim)); };
        std::shared_ptr<const JointCoordinate> coordinate;
        if (type == "revolute") {
          const bool planar = dim == 2;
          const Vector ua = planar ? Vector(Eigen::Vector2d::UnitX()) : or_empty(u_a);
          const Vector wa = planar ? Vector(Eigen::Vector2d::UnitY()) : or_empty(w_a);
          const Vector ub = planar ? Vector(Eigen::Vector2d::UnitX()) : or_empty(u_b);
          HingeAngle hinge = body_a.empty() ? HingeAngle::from_ground(ua, wa, b, ub)
                                            : HingeAngle::between(body_ref(*self.system, body_a, owner), ua, wa, b, ub);
          coordinate = std::make_shared<HingeCoordinate>(hinge.shifted(zero_angle));
        } else if (type == "prismatic") {
          if (!axis_a) throw std::invalid_argument(owner + ": a prismatic actuator needs axis_a");
          coordinate = std::make_shared<SlideCoordinate>(
              body_a.empty() ? SlideCoordinate::from_ground(point(point_a), *axis_a, b, point(point_b))
                             : SlideCoordinate::between(body_ref(*self.system, body_a, owner), point(point_a),
                                                        *axis_a, b, point(point_b)));
        } else {
          throw std::invalid_argument(owner + ": type expects revolute or prismatic, got " + quote(type));
        }
        self.system->add(std::shared_ptr<const Actuator>(std::make_shared<JointActuator>(
            name, std::move(coordinate),
            python_law(owner, Callable(law, owner + ": law", kNumber),
                       optional_callable(derivatives, owner + ": derivatives", kPairOfNumbers)))));
      },
      py::arg("name"), py::arg("type"), py::arg("law"), py::arg("body_b"), py::arg("derivatives") = py::none(),
      py::arg("body_a") = "", py::arg("u_a") = py::none(), py::arg("w_a") = py::none(), py::arg("u_b") = py::none(),
      py::arg("zero_angle") = 0.0, py::arg("point_a") = py::none(), py::arg("axis_a") = py::none(),
      py::arg("point_b") = py::none(),
      "A motor whose torque (type 'revolute': about the hinge angle, keys as a scene's revolute actuator) or "
      "force ('prismatic': along the slide) is law(t, x, x_dot) -> float, a controller written in Python; "
      "derivatives(t, x, x_dot) -> (du/dx, du/dx_dot), or central differences when not given (they enter "
      "Newton's tangent only). Over a step it reads the midpoint time, the mean x and (x1 - x0)/h, and does the "
      "work u (x1 - x0) (docs/scenes.md, \"actuators\"). every stepper but sem-vi takes it. Add "
      "before making a Stepper on the model.");
}

}  // namespace noether::python
