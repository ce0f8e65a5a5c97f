#include <cmath>
#include <string>
#include <vector>

#include <tbb/global_control.h>

#include <doctest/doctest.h>

#include <noether/bodies/generic_inertia.hpp>
#include <noether/engine/measures.hpp>
#include <noether/engine/unknown_ordering.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/joints/viscous_damper.hpp>
#include "support/half_square.hpp"

using namespace noether;

namespace {

std::shared_ptr<const Inertia> unit_mass(const std::string& name, std::vector<BlockId> blocks, Index size) {
  return std::make_shared<ConstantInertia>(name, std::move(blocks), Matrix(Matrix::Identity(size, size)));
}

/// A linear constraint sum_i (i + 1) q_i = 0 over `size` coordinates, repeated `rows` times with
/// row k scaled by k + 1.
std::shared_ptr<const Constraint> weighted_sum(const std::string& name, std::vector<BlockId> blocks, Index size,
                                               Index rows = 1) {
  ConstraintFunction f;
  f.num_equations = rows;
  f.nonlinearity = Nonlinearity::linear;
  f.jacobian = [=](ConstVectorRef) {
    Matrix G(rows, size);
    for (Index k = 0; k < rows; ++k)
      for (Index i = 0; i < size; ++i) G(k, i) = (k + 1.0) * (i + 1.0);
    return G;
  };
  f.value = [jacobian = f.jacobian](ConstVectorRef q) { return Vector(jacobian(q) * q); };
  return std::make_shared<FunctionConstraint>(name, std::move(blocks), size, f);
}

using testing::half_square;

/// A constraint that claims no equations (FunctionConstraint refuses that itself).
class EmptyConstraint final : public Constraint {
 public:
  EmptyConstraint() : Constraint("empty", {BlockId{0}}) {}
  Index local_size() const override { return 2; }
  Index num_equations() const override { return 0; }

 protected:
  void do_calc_value(ConstVectorRef, VectorRef) const override {}
  void do_calc_jacobian(ConstVectorRef, MatrixRef) const override {}
  void do_add_hessian_contraction(ConstVectorRef, ConstVectorRef, double, MatrixRef) const override {}
};

}  // namespace

TEST_CASE("System numbers coordinates block by block and labels them") {
  System system;
  const BlockId a = system.add_block("a", {"x", "y"});
  const BlockId b = system.add_block("b", 3);
  CHECK(a.value == 0);
  CHECK(b.value == 1);
  CHECK(system.num_coordinates() == 5);
  CHECK(system.block(b).offset == 2);
  CHECK(system.block(b).size() == 3);
  CHECK(system.find_block("b") == b);
  CHECK(system.coordinate_label(0) == "a.x");
  CHECK(system.coordinate_label(1) == "a.y");
  CHECK(system.coordinate_label(4) == "b.2");
  CHECK_THROWS_AS(system.coordinate_label(5), std::out_of_range);
  CHECK_THROWS_AS(system.coordinate_label(-1), std::out_of_range);
  CHECK_THROWS_AS(system.block(BlockId{2}), std::out_of_range);
  CHECK_THROWS_WITH_AS(system.find_block("c"), doctest::Contains("'c'"), std::out_of_range);
}

TEST_CASE("System refuses bad blocks") {
  System system;
  system.add_block("a", 2);
  CHECK_THROWS_WITH_AS(system.add_block("a", {"x"}), doctest::Contains("a coordinate block named 'a' exists already"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(system.add_block("", {"x"}), doctest::Contains("non-empty name"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(system.add_block("b", std::vector<std::string>{}), doctest::Contains("block 'b' has no coordinates"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(system.add_block("b", 0), doctest::Contains("block 'b' has size 0"), std::invalid_argument);
  CHECK(system.num_coordinates() == 2);  // nothing was added by the failed calls
  CHECK(system.blocks().size() == 1);
}

TEST_CASE("System places elements on the concatenation of their blocks and numbers multipliers") {
  System system;
  const BlockId a = system.add_block("a", 2);
  const BlockId b = system.add_block("b", 1);
  const BlockId c = system.add_block("c", 2);
  system.add(unit_mass("mass a", {a}, 2));
  system.add(weighted_sum("link", {c, a}, 4, 2));
  system.add(weighted_sum("pin", {b}, 1));
  system.add(half_square("spring", {b, c}, 3));
  system.add(std::make_shared<ConstantDamping>("damper", std::vector{a}, Matrix(Matrix::Identity(2, 2))));

  CHECK(system.inertias()[0].dofs == std::vector<Index>{0, 1});
  const Placed<Constraint>& link = system.constraints()[0];
  CHECK(link.dofs == std::vector<Index>{3, 4, 0, 1});  // block order of the element, not of the system
  CHECK(link.first_multiplier == 0);
  CHECK(system.constraints()[1].first_multiplier == 2);
  CHECK(system.num_multipliers() == 3);
  CHECK(system.potentials()[0].dofs == std::vector<Index>{2, 3, 4});
  CHECK(system.dissipations()[0].dofs == std::vector<Index>{0, 1});
  CHECK(system.multiplier_label(0) == "constraint 'link' row 0");
  CHECK(system.multiplier_label(1) == "constraint 'link' row 1");
  CHECK(system.multiplier_label(2) == "constraint 'pin' row 0");
  CHECK_THROWS_AS(system.multiplier_label(3), std::out_of_range);

  Vector local;
  gather(Vector(Eigen::Vector<double, 5>(10, 11, 12, 13, 14)), link.dofs, local);
  CHECK(local == Vector(Eigen::Vector4d(13, 14, 10, 11)));
}

TEST_CASE("System refuses bad elements with the element's name in the message") {
  System system;
  const BlockId a = system.add_block("a", 2);
  system.add(unit_mass("body", {a}, 2));
  CHECK_THROWS_WITH_AS(system.add(half_square("body", {a}, 2)),
                       doctest::Contains("an element named 'body' exists already"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(system.add(half_square("too big", {a}, 3)),
                       doctest::Contains("element 'too big' expects 3 coordinates but its blocks hold 2"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(system.add(weighted_sum("lost", {a, BlockId{7}}, 3)),
                       doctest::Contains("element 'lost' refers to block id 7"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(system.add(unit_mass("unplaced", {BlockId{-1}}, 2)),
                       doctest::Contains("element 'unplaced' refers to block id -1"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(system.add(std::make_shared<EmptyConstraint>()), doctest::Contains("constraint 'empty' has no equations"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(system.add(std::shared_ptr<const Potential>()), doctest::Contains("null element"),
                       std::invalid_argument);
  CHECK_THROWS_AS(system.add(std::shared_ptr<const Constraint>()), std::invalid_argument);

  // Failed adds leave nothing behind: the names are still free and nothing was placed.
  CHECK(system.potentials().empty());
  CHECK(system.constraints().empty());
  CHECK(system.num_multipliers() == 0);
  CHECK_NOTHROW(system.add(half_square("too big", {a}, 2)));
  CHECK_NOTHROW(system.add(weighted_sum("lost", {a}, 2)));
}

TEST_CASE("system measures: energies, g(q), G v and M v sum over the elements") {
  System system;
  const BlockId a = system.add_block("a", 2);
  const BlockId b = system.add_block("b", 1);
  system.add(unit_mass("mass a", {a}, 2));
  system.add(std::make_shared<ConstantInertia>("coupling", std::vector{a, b}, Matrix::Constant(3, 3, 1.0)));
  system.add(half_square("spring", {b, a}, 3));
  system.add(weighted_sum("link", {b, a}, 3));
  const Vector q = Vector(Eigen::Vector3d(1.0, -2.0, 0.5)), v = Vector(Eigen::Vector3d(0.5, 1.0, -1.0));

  // M = I on a, plus the all-ones coupling on (a, b).
  Matrix M = Matrix::Constant(3, 3, 1.0);
  M.topLeftCorner(2, 2) += Matrix::Identity(2, 2);
  CHECK(kinetic_energy(system, q, v) == doctest::Approx(0.5 * v.dot(M * v)).epsilon(1e-15));
  CHECK(potential_energy(system, q) == doctest::Approx(0.5 * q.squaredNorm()).epsilon(1e-15));
  Vector p(3);
  calc_momentum(system, q, v, p);
  CHECK((p - M * v).cwiseAbs().maxCoeff() <= 1e-15);
  Vector g(1), gv(1);
  calc_constraint_values(system, q, g);
  calc_velocity_constraint_values(system, q, v, gv);
  CHECK(g(0) == 1.0 * q(2) + 2.0 * q(0) + 3.0 * q(1));  // link's local order is (b, a)
  CHECK(gv(0) == 1.0 * v(2) + 2.0 * v(0) + 3.0 * v(1));
  CHECK(max_abs(Vector(Eigen::Vector3d(1.0, -4.0, 2.0))) == 4.0);
  CHECK(max_abs(Vector()) == 0.0);
  CHECK(std::isnan(max_abs(Vector(Eigen::Vector3d(0.0, std::nan(""), 1.0)))));  // NaN is never hidden
}

TEST_CASE("system measures over many elements: the same bits on 1 and 2 threads, the sums of the element terms") {
  // 1 000 blocks (four fixed blocks of elements of each kind), elements of two sizes in turn, so
  // that a task's reused buffers also serve elements smaller than themselves.
  constexpr Index blocks = 1000;
  System system;
  std::vector<BlockId> ids;
  const auto numbered = [](std::string name, Index i) { return name.append(std::to_string(i)); };
  for (Index i = 0; i < blocks; ++i) ids.push_back(system.add_block(numbered("b", i), 2));
  for (Index i = 0; i < blocks; ++i) {
    const bool pair = i % 2 == 1;
    const std::vector<BlockId> on = pair ? std::vector{ids[i - 1], ids[i]} : std::vector{ids[i]};
    const Index size = pair ? 4 : 2;
    system.add(unit_mass(numbered("mass ", i), on, size));
    system.add(half_square(numbered("spring ", i), on, size));
    system.add(weighted_sum(numbered("link ", i), on, size, pair ? 2 : 1));
  }
  const Vector q = Vector::LinSpaced(2 * blocks, -1.0, 3.0).array().sin();
  const Vector v = Vector::LinSpaced(2 * blocks, 2.0, -5.0).array().cos();

  struct Measures {
    double kinetic, potential;
    Vector g, gv;
    Vector g_together, gv_together;  ///< from calc_constraint_residuals
  };
  const auto measure_on = [&](std::size_t threads) {
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    const Index m = system.num_multipliers();
    Measures measures{kinetic_energy(system, q, v), potential_energy(system, q), Vector(m), Vector(m), Vector(m),
                      Vector(m)};
    calc_constraint_values(system, q, measures.g);
    calc_velocity_constraint_values(system, q, v, measures.gv);
    calc_constraint_residuals(system, q, v, measures.g_together, measures.gv_together);
    return measures;
  };
  const Measures one = measure_on(1), two = measure_on(2);
  CHECK(one.kinetic == two.kinetic);
  CHECK(one.potential == two.potential);
  CHECK(one.g == two.g);
  CHECK(one.gv == two.gv);
  // The one walk gives the bits of the two, on any number of threads.
  CHECK(one.g_together == one.g);
  CHECK(one.gv_together == one.gv);
  CHECK(two.g_together == one.g);
  CHECK(two.gv_together == one.gv);

  // Against the element terms, evaluated one by one here.
  double kinetic = 0.0, potential = 0.0;
  Vector g_expected(system.num_multipliers()), gv_expected(system.num_multipliers());
  Vector q_local, v_local;
  for (std::size_t i = 0; i < system.inertias().size(); ++i) {
    const Placed<Inertia>& mass = system.inertias()[i];
    gather(q, mass.dofs, q_local);
    gather(v, mass.dofs, v_local);
    kinetic += 0.5 * v_local.squaredNorm();
    potential += 0.5 * q_local.squaredNorm();
    const Placed<Constraint>& link = system.constraints()[i];
    Matrix G(link.element->num_equations(), q_local.size());
    link.element->calc_jacobian(q_local, G);
    g_expected.segment(link.first_multiplier, G.rows()) = G * q_local;
    gv_expected.segment(link.first_multiplier, G.rows()) = G * v_local;
  }
  // The sums add ~1 000 terms of order 1 in another association: rounding differences of a few ulp.
  CHECK(one.kinetic == doctest::Approx(kinetic).epsilon(1e-13));
  CHECK(one.potential == doctest::Approx(potential).epsilon(1e-13));
  CHECK((one.g - g_expected).cwiseAbs().maxCoeff() <= 1e-13);
  CHECK((one.gv - gv_expected).cwiseAbs().maxCoeff() <= 1e-13);
}

TEST_CASE("kinetic energy of an inertia larger than the stack-held mass matrices (12 coordinates)") {
  System system;
  const BlockId a = system.add_block("a", 16);
  system.add(std::make_shared<ConstantInertia>("wide", std::vector{a}, Matrix(2.0 * Matrix::Identity(16, 16))));
  const Vector v = Vector::LinSpaced(16, -1.0, 2.0);
  CHECK(kinetic_energy(system, Vector::Zero(16), v) == doctest::Approx(v.squaredNorm()).epsilon(1e-15));
}

TEST_CASE("body-wise ordering puts each constraint's multipliers after the block of its last coordinate") {
  System system;
  const BlockId a = system.add_block("a", 2);
  const BlockId b = system.add_block("b", 1);
  const BlockId c = system.add_block("c", 2);
  system.add(weighted_sum("link", {c, a}, 4, 2));  // last coordinate in c: rows 0, 1 go after c
  system.add(weighted_sum("pin", {b}, 1));         // row 2 goes after b
  using enum FieldKind;
  // natural (q a0 a1 b0 c0 c1 | mu link0 link1 pin0) -> a0 a1 b0 pin0 c0 c1 link0 link1
  CHECK(body_wise_positions(system, std::vector{coordinates, multipliers}) == std::vector<Index>{0, 1, 2, 4, 5, 6, 7, 3});
  // natural (q | u | mu): per block its q, then its u, then its multipliers
  CHECK(body_wise_positions(system, std::vector{coordinates, coordinates, multipliers}) ==
        std::vector<Index>{0, 1, 4, 7, 8, 2, 3, 5, 9, 10, 11, 12, 6});
}

TEST_CASE("names that would split or shift output columns are refused, naming them") {
  // The reliability table found a body named "a,b" writing the header "q:a,b.phi.x" into
  // timeseries.csv: one more column than each row has, every later column misnamed.
  const std::string rule =
      ": a name must not contain a comma, a double quote, a control character (a newline, a tab, ESC, U+0085), a "
      "Unicode format character (U+200B, U+202E) or a byte that is not UTF-8, and it holds ";
  const std::string reason = ": names head the columns of the output files";
  System system;
  struct Case {
    std::string name, shown, holds;
  };
  // Issue 40: U+0085 (a C1 control), a NUL (which ended what()'s C string), ESC (whose sequence
  // reached the terminal), a right-to-left override, a zero-width space and a byte not UTF-8 were
  // accepted or printed as they are; the message shows each escaped.
  for (const Case& c : {Case{"a,b", "a,b", "a comma"}, Case{"a\"b", "a\"b", "a double quote"},
                        Case{"a\nb", "a\\nb", "\\n"}, Case{"a\tb", "a\\tb", "\\t"},
                        Case{"a\u0085b", "a\\u0085b", "\\u0085"}, Case{std::string("a\0b", 3), "a\\u0000b", "\\u0000"},
                        Case{"a\x1b[31mb", "a\\u001b[31mb", "\\u001b"}, Case{"a\u202eb", "a\\u202eb", "\\u202e"},
                        Case{"a\u200bb", "a\\u200bb", "\\u200b"}, Case{"a\xff" "b", "a\\xffb", "\\xff"}}) {
    CAPTURE(c.shown);
    CHECK_THROWS_WITH_AS(system.add_block(c.name, 1), ("coordinate block '" + c.shown + "'" + rule + c.holds + reason).c_str(),
                         std::invalid_argument);
  }
  CHECK_THROWS_WITH_AS(system.add_block("p", {"x,y"}), doctest::Contains("coordinate of block 'p' 'x,y': a name must not"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(system.add_block("", 1), "a coordinate block needs a non-empty name", std::invalid_argument);
  const BlockId p = system.add_block("ü bar [1]", {"x"});  // spaces, brackets and UTF-8 are fine
  CHECK_THROWS_WITH_AS(system.add(std::make_shared<ConstantInertia>("mass,1", std::vector{p}, Matrix::Identity(1, 1))),
                       doctest::Contains("element 'mass,1': a name must not contain a comma"), std::invalid_argument);
  CHECK(system.num_coordinates() == 1);
}

TEST_CASE("coordinate labels that would head one output column twice are refused, naming both coordinates") {
  // Issue 40: a point mass "bar.phi" beside a planar body "bar" (coordinates phi.x, ...) wrote two
  // columns q:bar.phi.x into timeseries.csv and the key "bar.phi.x" twice into final_state.json.
  System system;
  system.add_block("bar", {"phi.x", "phi.y", "d1.x"});
  CHECK_THROWS_WITH_AS(system.add_block("bar.phi", {"z", "x"}),
                       "the coordinate 'x' of block 'bar.phi' and the coordinate 'phi.x' of block 'bar' have one label, "
                       "bar.phi.x, which would head two output columns; rename one of the blocks",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(system.add_block("bar.d1", {"x"}), doctest::Contains("label, bar.d1.x,"), std::invalid_argument);
  system.add_block("bar.phi", {"z"});  // bar.phi.z is no other coordinate's label
  // The other order: the block with the dotted coordinate comes second, over two levels of dots.
  system.add_block("a.b.c", {"x"});
  CHECK_THROWS_WITH_AS(system.add_block("a", {"w", "b.c.x"}),
                       "the coordinate 'b.c.x' of block 'a' and the coordinate 'x' of block 'a.b.c' have one label, "
                       "a.b.c.x, which would head two output columns; rename one of the blocks",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(system.add_block("a.b", {"c.x"}), doctest::Contains("label, a.b.c.x,"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(system.add_block("c", {"a", "b", "a"}),
                       "coordinate block 'c' names its coordinate 'a' twice: each label c.a heads one output column; "
                       "name each coordinate once",
                       std::invalid_argument);
  CHECK(system.blocks().size() == 3);  // the refused blocks were not added
  for (Index i = 0; i < system.num_coordinates(); ++i) CHECK(system.find_coordinate(system.coordinate_label(i)) == i);
  CHECK_FALSE(system.find_coordinate("bar.phi.w"));
  CHECK_FALSE(system.find_coordinate("bar"));
}
