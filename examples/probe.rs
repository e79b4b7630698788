fn main() {
    use parry3d_f64::math::{Pose, Vector};
    use parry3d_f64::shape::*;
    let p1 = Pose::from_parts(
        Vector::new(0.1, 0.2, 0.3),
        parry3d_f64::math::Rotation::from_rotation_y(0.3),
    );
    let p2 = Pose::translation(1.0, 0.0, 0.0);
    let shapes: Vec<SharedShape> = vec![
        SharedShape::ball(0.5),
        SharedShape::cuboid(1.0, 2.0, 3.0),
        SharedShape::capsule_y(0.5, 0.2),
        SharedShape::cylinder(0.5, 0.2),
        SharedShape::cone(0.5, 0.2),
        SharedShape::segment(Vector::ZERO, Vector::X),
        SharedShape::triangle(Vector::ZERO, Vector::X, Vector::Y),
        SharedShape::round_cuboid(1.0, 1.0, 1.0, 0.1),
        SharedShape::convex_hull(&[Vector::ZERO, Vector::X, Vector::Y, Vector::Z]).unwrap(),
        SharedShape::round_convex_hull(&[Vector::ZERO, Vector::X, Vector::Y, Vector::Z], 0.1)
            .unwrap(),
        SharedShape::round_cylinder(0.5, 0.2, 0.05),
        SharedShape::round_cone(0.5, 0.2, 0.05),
        SharedShape::round_triangle(Vector::ZERO, Vector::X, Vector::Y, 0.1),
        SharedShape::halfspace(Vector::Y),
    ];
    for s in &shapes {
        println!("{}", serde_json::to_string(&(p1, s, p2, s)).unwrap());
    }
    let q = parry3d::math::Pose::from_parts(
        parry3d::math::Vector::new(0.1, 0.2, 0.3),
        parry3d::math::Rotation::from_rotation_y(0.3),
    );
    println!(
        "{}",
        serde_json::to_string(&(
            q,
            parry3d::shape::SharedShape::ball(0.1),
            q,
            parry3d::shape::SharedShape::ball(0.1)
        ))
        .unwrap()
    );
}
