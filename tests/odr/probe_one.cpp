// Half of a deliberate one-definition-rule violation (probe_two.cpp holds the other): the self-test of
// cmake/OdrCheck.cmake, which must report these two `Shape`s, or its odr_* tests would pass on anything.
namespace numagpu::odr_probe {

struct Shape {
  int sides;
};

int sides_of_one(const Shape& s) {
  return s.sides;
}

}  // namespace numagpu::odr_probe
