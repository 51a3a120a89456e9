// The other half of the deliberate violation of probe_one.cpp: a `Shape` of the same name, another layout.
namespace numagpu::odr_probe {

struct Shape {
  double area;
  int sides;
};

int sides_of_two(const Shape& s) {
  return s.sides;
}

}  // namespace numagpu::odr_probe
