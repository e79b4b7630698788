// Coal's side of the mesh benchmark (benches/mesh_vs_coal.py builds and drives it):
// the distance between a triangle mesh, as coal::BVHModel<coal::OBBRSS> built the way
// Pinocchio builds it (beginModel / addSubModel / endModel), and a coal::Sphere or a
// coal::Box, by coal::distance, at the poses of a problem file written by
// `mesh_vs_coal write DIR` (format in benches/mesh_vs_coal.rs).
//
// usage: coal_mesh_time FILE REPEATS
//
// Three requests are timed, each on the ball and on the box:
//   default  - coal::DistanceRequest() as it comes (signed distance on: EPA on an
//              overlapping triangle; GJK 128 iterations, tolerance 1e-6 relative, the
//              default criterion; rel_err = abs_err = 0)
//   unsigned - the same with enable_signed_distance = false
//   matched  - unsigned, and GJK stopped as ours is in the benchmark settings: duality
//              gap, absolute, 1e-8, 1000 iterations
// Per repeat one pass over the poses per request and shape, after one untimed pass.
// Prints `d REQUEST SHAPE POSE DISTANCE`, `p REQUEST SHAPE POSE SECONDS` (the query's
// median over the repeats) and `t REQUEST SHAPE MEDIAN MIN` (seconds for all the poses,
// median and least over the repeats).
#include <coal/BVH/BVH_model.h>
#include <coal/collision_data.h>
#include <coal/distance.h>
#include <coal/shape/geometric_shapes.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace coal;

static void expect(std::istream& in, const std::string& word) {
  std::string got;
  in >> got;
  if (got != word) throw std::runtime_error("expected " + word + ", read " + got);
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: coal_mesh_time FILE REPEATS\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  int repeats = std::max(1, atoi(argv[2]));
  std::string name;
  size_t nv, nt, np;
  double r;
  expect(in, "collidescope-mesh-poses");
  expect(in, "1");
  expect(in, "name");
  in >> name;
  expect(in, "vertices");
  in >> nv;
  std::vector<Vec3s> vertices(nv);
  for (auto& v : vertices) in >> v[0] >> v[1] >> v[2];
  expect(in, "triangles");
  in >> nt;
  std::vector<Triangle> triangles(nt);
  for (auto& t : triangles) {
    size_t a, b, c;
    in >> a >> b >> c;
    t.set(a, b, c);
  }
  expect(in, "size");
  in >> r;
  expect(in, "poses");
  in >> np;
  std::vector<Transform3s> poses;
  for (size_t p = 0; p < np; ++p) {
    Matrix3s R;
    Vec3s t;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) in >> R(i, j);
    in >> t[0] >> t[1] >> t[2];
    poses.emplace_back(R, t);
  }
  if (!in) throw std::runtime_error("the file ends early");

  auto mesh = std::make_shared<BVHModel<OBBRSS>>();
  mesh->beginModel(static_cast<unsigned int>(nt), static_cast<unsigned int>(nv));
  mesh->addSubModel(vertices, triangles);
  mesh->endModel();
  Sphere ball(r);
  Box box(2 * r, 2 * r, 2 * r);  // full sides: half extents r
  const std::pair<const char*, const CollisionGeometry*> shapes[] = {{"ball", &ball},
                                                                     {"box", &box}};

  DistanceRequest def;
  DistanceRequest unsigned_ = def;
  unsigned_.enable_signed_distance = false;
  DistanceRequest matched = unsigned_;
  matched.gjk_convergence_criterion = GJKConvergenceCriterion::DualityGap;
  matched.gjk_convergence_criterion_type = GJKConvergenceCriterionType::Absolute;
  matched.gjk_tolerance = 1e-8;
  matched.gjk_max_iterations = 1000;
  const std::pair<const char*, DistanceRequest> requests[] = {
      {"default", def}, {"unsigned", unsigned_}, {"matched", matched}};

  const Transform3s identity = Transform3s::Identity();
  double sink = 0;
  // One pass over the poses: its time, and each query's (clock reads add ~50 ns a query).
  auto pass = [&](const CollisionGeometry* shape, const DistanceRequest& request,
                  std::vector<double>* each) {
    auto t0 = std::chrono::steady_clock::now();
    auto before = t0;
    for (size_t p = 0; p < np; ++p) {
      DistanceResult result;
      sink += distance(mesh.get(), identity, shape, poses[p], request, result);
      auto after = std::chrono::steady_clock::now();
      if (each) each[p].push_back(std::chrono::duration<double>(after - before).count());
      before = after;
    }
    return std::chrono::duration<double>(before - t0).count();
  };
  for (const auto& [rname, request] : requests)
    for (const auto& [sname, shape] : shapes) {
      for (size_t p = 0; p < np; ++p) {
        DistanceResult result;
        double d = distance(mesh.get(), identity, shape, poses[p], request, result);
        printf("d %s %s %zu %.17g\n", rname, sname, p, d);
      }
      pass(shape, request, nullptr);
    }
  std::vector<double> seconds[3][2];
  std::vector<std::vector<double>> each[3][2];
  for (int q = 0; q < 3; ++q)
    for (int s = 0; s < 2; ++s) each[q][s].resize(np);
  for (int k = 0; k < repeats; ++k)
    for (int q = 0; q < 3; ++q)
      for (int s = 0; s < 2; ++s)
        seconds[q][s].push_back(pass(shapes[s].second, requests[q].second, each[q][s].data()));
  auto median = [](std::vector<double>& v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  for (int q = 0; q < 3; ++q)
    for (int s = 0; s < 2; ++s) {
      for (size_t p = 0; p < np; ++p)
        printf("p %s %s %zu %.6e\n", requests[q].first, shapes[s].first, p, median(each[q][s][p]));
      auto& v = seconds[q][s];
      double m = median(v);
      printf("t %s %s %.6e %.6e\n", requests[q].first, shapes[s].first, m, v[0]);
    }
  if (sink == 12345.678) printf("#\n");
  return 0;
}
