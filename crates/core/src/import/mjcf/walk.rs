//! The walk over the body tree: frames composed (and joints placed at a keyframe, as
//! MuJoCo's kinematics does), every geom made a body in the world, planes made slabs, and
//! what MuJoCo's collision filter reads (`pairs.rs` counts and lists the pairs).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use glam::{DMat3, DQuat, DVec3};
use roxmltree::{Document, Node};

use super::pairs::Filter;
use super::settings::{Compiler, Defaults};
use super::{located, numbers, vector, GeomInfo, MjcfModel};
use crate::scene::{BodySpec, RotationSpec, ShapeSpec};

/// A rigid frame: rotation then translation (world from local).
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub(super) rotation: DQuat,
    pub(super) translation: DVec3,
}

impl Frame {
    pub(super) const IDENTITY: Frame = Frame {
        rotation: DQuat::IDENTITY,
        translation: DVec3::ZERO,
    };

    fn then(&self, local: Frame) -> Frame {
        Frame {
            rotation: (self.rotation * local.rotation).normalize(),
            translation: self.translation + self.rotation * local.translation,
        }
    }
}

/// The most a coordinate or a size may be: the scene's own cap
/// ([`crate::shape::MAX_COORDINATE`]), so a model is refused where its number is, not
/// later as a scene body that names neither the geom nor the line.
const LIMIT: f64 = crate::shape::MAX_COORDINATE;

/// An element of a body with the frame it sits in (its `<frame>`s composed) and the
/// class its children take.
type Placed<'d, 'i> = (Node<'d, 'i>, Frame, String);

/// A body waiting to be walked: its world section, element, parent frame, class and
/// parent body.
type Pending<'d, 'i> = (usize, Node<'d, 'i>, Frame, String, usize);

/// The walk over the bodies: what has been read so far.
pub(super) struct Walk<'a> {
    /// The keyframe's joint positions, when one was asked for, and how many the joints
    /// walked so far took.
    pub(super) qpos: Option<Vec<f64>>,
    pub(super) qpos_at: usize,
    pub(super) compiler: &'a Compiler,
    pub(super) defaults: &'a Defaults,
    pub(super) meshes: &'a HashMap<String, Vec<DVec3>>,
    pub(super) hfields: &'a HashMap<String, super::hfield::HField>,
    pub(super) model: MjcfModel,
    pub(super) body_names: Vec<String>,
    pub(super) body_parent: Vec<usize>,
    /// Each body's weld body: itself when it has a joint (or is the world), else its
    /// parent's; set once as the body is met, so the filter never walks up a chain.
    pub(super) body_weld: Vec<usize>,
    pub(super) geom_body: Vec<usize>,
    /// `(contype, conaffinity)` per imported geom.
    pub(super) geom_filter: Vec<(u32, u32)>,
    pub(super) geom_names: HashMap<String, usize>,
    /// Geoms named by a `<pair>`: collision geoms whatever their filter.
    pub(super) paired: std::collections::HashSet<String>,
    /// Where each imported geom is written (file and line), for messages.
    pub(super) geom_places: Vec<(PathBuf, usize)>,
    /// Each file's line starts (byte offsets): a geom's line found by a binary search,
    /// not by counting the text before it.
    pub(super) line_starts: HashMap<PathBuf, Vec<usize>>,
    /// Geom elements met so far (MuJoCo's geom ids).
    pub(super) geom_count: usize,
    /// A bounding sphere per imported geom (world centre, radius): the planes' slabs.
    pub(super) bounds: Vec<(DVec3, f64)>,
    /// The plane geoms: their index among the imported geoms and their frame (the plane
    /// is the frame's xy-plane, its normal the frame's z axis).
    pub(super) planes: Vec<(usize, Frame)>,
}

/// `what` at `value`, held to the scene's cap.
pub(super) fn capped(what: &str, value: DVec3) -> Result<(), String> {
    if value.is_finite() && value.abs().max_element() <= LIMIT {
        Ok(())
    } else {
        Err(format!(
            "{what} ({:e}, {:e}, {:e}) lies beyond ±1e75, where lengths overflow f64 \
             arithmetic in GJK",
            value.x, value.y, value.z
        ))
    }
}

impl Walk<'_> {
    /// Every `<worldbody>` as one world body: its geoms first (all sections), then the
    /// bodies depth first, each body's geoms before its children's, as MuJoCo numbers
    /// them. The bodies wait on an explicit stack, so a chain thousands deep costs no
    /// call stack.
    pub(super) fn walk_worlds<'d, 'i>(
        &mut self,
        worlds: &[(&Path, &'d Document<'i>, Node<'d, 'i>)],
    ) -> Result<(), String> {
        let mut top: Vec<Pending<'d, 'i>> = Vec::new();
        for (k, &(path, doc, world)) in worlds.iter().enumerate() {
            let items = self.contents(path, doc, world, Frame::IDENTITY, "main")?;
            for (node, frame, class) in self.geoms_of(path, doc, &items)? {
                self.geom_at(path, doc, node, frame, 0, &class)?;
            }
            top.extend(bodies_of(&items).map(|(n, f, c)| (k, n, f, c, 0)));
        }
        let mut stack: Vec<Pending<'d, 'i>> = top.into_iter().rev().collect();
        while let Some((k, node, frame, class, parent)) = stack.pop() {
            let (path, doc, _) = worlds[k];
            let here = |e: String| located(path, doc, node, &e);
            let (index, placed, class) = self.body(node, frame, &class, parent).map_err(here)?;
            let items = self.contents(path, doc, node, placed, &class)?;
            for (geom, frame, class) in self.geoms_of(path, doc, &items)? {
                self.geom_at(path, doc, geom, frame, index, &class)?;
            }
            let children: Vec<Pending<'d, 'i>> = bodies_of(&items)
                .map(|(n, f, c)| (k, n, f, c, index))
                .collect();
            stack.extend(children.into_iter().rev());
        }
        Ok(())
    }

    /// A body met: its name, parent and weld body recorded, its frame placed (moved by
    /// its joints at a keyframe); its index, frame and childclass.
    fn body(
        &mut self,
        node: Node,
        frame: Frame,
        class: &str,
        parent: usize,
    ) -> Result<(usize, Frame, String), String> {
        let local = self.pose(node, None)?;
        let class = node.attribute("childclass").unwrap_or(class).to_string();
        let placed = self.joints(node, frame.then(local), &class)?;
        let index = self.body_names.len();
        let name = node
            .attribute("name")
            .map_or_else(|| format!("body {index}"), str::to_string);
        let what = if node.attribute("name").is_some() {
            format!("body {name}")
        } else {
            format!("the unnamed {name}")
        };
        capped(&format!("{what}: its position"), placed.translation)?;
        self.body_names.push(name);
        self.body_parent.push(parent);
        let jointed = node
            .children()
            .any(|n| n.has_tag_name("joint") || n.has_tag_name("freejoint"));
        let weld = if jointed {
            index
        } else {
            self.body_weld[parent]
        };
        self.body_weld.push(weld);
        Ok((index, placed, class))
    }

    /// The elements of `node` in document order, those inside its `<frame>`s in place
    /// (each with the frame it sits in and its class): an explicit stack of the frames
    /// open, so frames nested deep cost no call stack.
    fn contents<'d, 'i>(
        &self,
        path: &Path,
        doc: &Document,
        node: Node<'d, 'i>,
        frame: Frame,
        class: &str,
    ) -> Result<Vec<Placed<'d, 'i>>, String> {
        let mut out = Vec::new();
        let mut open = vec![(node.children(), frame, class.to_string())];
        while let Some((children, frame, class)) = open.last_mut() {
            let Some(child) = children.next() else {
                open.pop();
                continue;
            };
            if !child.is_element() {
                continue;
            }
            if child.has_tag_name("frame") {
                let local = self
                    .pose(child, None)
                    .map_err(|e| located(path, doc, child, &e))?;
                let inner = frame.then(local);
                let class = child.attribute("childclass").unwrap_or(class).to_string();
                open.push((child.children(), inner, class));
            } else {
                out.push((child, *frame, class.clone()));
            }
        }
        Ok(out)
    }

    /// A body's geoms among its elements; the elements that make geoms this reader does
    /// not expand are refused, never dropped in silence.
    fn geoms_of<'d, 'i>(
        &self,
        path: &Path,
        doc: &Document,
        items: &[Placed<'d, 'i>],
    ) -> Result<Vec<Placed<'d, 'i>>, String> {
        let mut geoms = Vec::new();
        for (node, frame, class) in items {
            let here = |e: String| located(path, doc, *node, &e);
            match node.tag_name().name() {
                "geom" => geoms.push((*node, *frame, class.clone())),
                "include" => {
                    return Err(here(
                        "<include> inside a body: only top-level includes are read".into(),
                    ))
                }
                tag @ ("replicate" | "attach" | "composite" | "flexcomp") => {
                    return Err(here(format!(
                        "<{tag}> is not expanded here: save the compiled model with MuJoCo's \
                         mj_saveLastXML and import that"
                    )));
                }
                _ => {}
            }
        }
        Ok(geoms)
    }

    /// The line `node` starts on in the file at `path`.
    fn line(&self, path: &Path, node: Node) -> usize {
        let at = node.range().start;
        self.line_starts
            .get(path)
            .map_or(0, |starts| starts.partition_point(|s| *s <= at))
    }

    /// [`Self::geom`], its refusal naming the file, the line and the element.
    fn geom_at(
        &mut self,
        path: &Path,
        doc: &Document,
        node: Node,
        frame: Frame,
        body: usize,
        class: &str,
    ) -> Result<(), String> {
        let place = (path.to_path_buf(), self.line(path, node));
        let before = self.geom_body.len();
        self.geom(node, frame, body, class)
            .map_err(|e| located(path, doc, node, &e))?;
        if self.geom_body.len() > before {
            self.geom_places.push(place);
        }
        Ok(())
    }

    /// A body's frame moved by its joints at the keyframe's `qpos` (MuJoCo's
    /// `mj_kinematics`): a free joint sets the pose, a ball or hinge turns the body about
    /// the joint's anchor, a slide moves it along the axis. Without a keyframe the joints
    /// only count their coordinates, and the body stays where the file puts it.
    fn joints(&mut self, body: Node, frame: Frame, class: &str) -> Result<Frame, String> {
        let mut frame = frame;
        for joint in body
            .children()
            .filter(|n| n.has_tag_name("joint") || n.has_tag_name("freejoint"))
        {
            let joint_class = joint.attribute("class").unwrap_or(class);
            let empty = HashMap::new();
            let defaults = self.defaults.joint.get(joint_class).unwrap_or(&empty);
            let attr = |name: &str| {
                joint
                    .attribute(name)
                    .map(str::to_string)
                    .or_else(|| defaults.get(name).cloned())
            };
            let kind = if joint.has_tag_name("freejoint") {
                "free".to_string()
            } else {
                attr("type").unwrap_or_else(|| "hinge".into())
            };
            let width = match kind.as_str() {
                "free" => 7,
                "ball" => 4,
                "hinge" | "slide" => 1,
                other => {
                    return Err(format!(
                        "joint type=\"{other}\": free, ball, hinge or slide"
                    ))
                }
            };
            let at = self.qpos_at;
            self.qpos_at += width;
            let Some(qpos) = &self.qpos else {
                continue;
            };
            let Some(q) = qpos.get(at..at + width) else {
                return Err(format!(
                    "the key's qpos has {} numbers; the joints need more",
                    qpos.len()
                ));
            };
            let anchor = match attr("pos") {
                Some(p) => vector(&p, "pos")?,
                None => DVec3::ZERO,
            };
            let axis = match attr("axis") {
                Some(a) => vector(&a, "axis")?.normalize_or_zero(),
                None => DVec3::Z,
            };
            let reference = match attr("ref") {
                Some(r) => numbers(&r, "ref")?.first().copied().unwrap_or(0.0),
                None => 0.0,
            };
            let unit = |q: DQuat| {
                let n = q.length();
                if n > 0.0 && n.is_finite() {
                    Ok(q / n)
                } else {
                    Err("the key's quaternion is zero".to_string())
                }
            };
            let turn = |frame: Frame, local: DQuat| {
                let world_anchor = frame.translation + frame.rotation * anchor;
                let rotation = (frame.rotation * local).normalize();
                Frame {
                    rotation,
                    translation: world_anchor - rotation * anchor,
                }
            };
            frame = match kind.as_str() {
                "free" => Frame {
                    translation: DVec3::new(q[0], q[1], q[2]),
                    rotation: unit(DQuat::from_xyzw(q[4], q[5], q[6], q[3]))?,
                },
                "ball" => turn(frame, unit(DQuat::from_xyzw(q[1], q[2], q[3], q[0]))?),
                "hinge" => {
                    let angle = q[0] - self.angle(reference);
                    turn(frame, DQuat::from_axis_angle(axis, angle))
                }
                _ => Frame {
                    rotation: frame.rotation,
                    translation: frame.translation + frame.rotation * axis * (q[0] - reference),
                },
            };
        }
        Ok(frame)
    }

    /// An element's local pose from its attributes (or, for a geom, its defaults).
    fn pose(
        &self,
        node: Node,
        defaults: Option<&HashMap<String, String>>,
    ) -> Result<Frame, String> {
        let attr = |name: &str| {
            node.attribute(name)
                .map(str::to_string)
                .or_else(|| defaults.and_then(|d| d.get(name).cloned()))
        };
        let translation = match attr("pos") {
            Some(p) => vector(&p, "pos")?,
            None => DVec3::ZERO,
        };
        let given: Vec<&str> = ["quat", "axisangle", "euler", "xyaxes", "zaxis"]
            .into_iter()
            .filter(|a| node.attribute(*a).is_some())
            .collect();
        if given.len() > 1 {
            return Err(format!("more than one orientation: {}", given.join(", ")));
        }
        // The element's own orientation, else its class's.
        let orientation = given.first().map(|a| a.to_string()).or_else(|| {
            ["quat", "axisangle", "euler", "xyaxes", "zaxis"]
                .into_iter()
                .find(|a| defaults.is_some_and(|d| d.contains_key(*a)))
                .map(str::to_string)
        });
        let rotation = match orientation.as_deref() {
            None => DQuat::IDENTITY,
            Some(kind) => {
                let text = attr(kind).unwrap_or_default();
                self.orientation(kind, &text)?
            }
        };
        Ok(Frame {
            rotation,
            translation,
        })
    }

    fn angle(&self, value: f64) -> f64 {
        if self.compiler.degrees {
            value.to_radians()
        } else {
            value
        }
    }

    fn orientation(&self, kind: &str, text: &str) -> Result<DQuat, String> {
        let v = numbers(text, kind)?;
        let count = |n: usize| {
            if v.len() == n {
                Ok(())
            } else {
                Err(format!("{kind}=\"{text}\": {n} numbers expected"))
            }
        };
        let unit = |q: DQuat| {
            let n = q.length();
            if n > 0.0 && n.is_finite() {
                Ok(q / n)
            } else {
                Err(format!("{kind}=\"{text}\": no rotation"))
            }
        };
        match kind {
            "quat" => {
                count(4)?;
                // MuJoCo writes w first.
                unit(DQuat::from_xyzw(v[1], v[2], v[3], v[0]))
            }
            "axisangle" => {
                count(4)?;
                let axis = DVec3::new(v[0], v[1], v[2]);
                let n = axis.length();
                if !(n > 0.0 && n.is_finite()) {
                    return Err(format!("axisangle=\"{text}\": the axis is zero"));
                }
                Ok(DQuat::from_axis_angle(axis / n, self.angle(v[3])))
            }
            "euler" => {
                count(3)?;
                let mut q = DQuat::IDENTITY;
                for (k, &axis) in self.compiler.eulerseq.iter().enumerate() {
                    let turn = match axis.to_ascii_lowercase() {
                        b'x' => DQuat::from_rotation_x(self.angle(v[k])),
                        b'y' => DQuat::from_rotation_y(self.angle(v[k])),
                        _ => DQuat::from_rotation_z(self.angle(v[k])),
                    };
                    // Lower case: about the rotating frame's axis; upper case: the fixed one.
                    q = if axis.is_ascii_lowercase() {
                        q * turn
                    } else {
                        turn * q
                    };
                }
                unit(q)
            }
            "xyaxes" => {
                count(6)?;
                let x = DVec3::new(v[0], v[1], v[2]).normalize_or_zero();
                let y = DVec3::new(v[3], v[4], v[5]);
                let y = (y - x * x.dot(y)).normalize_or_zero();
                let z = x.cross(y);
                if x == DVec3::ZERO || y == DVec3::ZERO {
                    return Err(format!("xyaxes=\"{text}\": the axes are zero or parallel"));
                }
                unit(DQuat::from_mat3(&DMat3::from_cols(x, y, z)))
            }
            _ => {
                count(3)?;
                let z = DVec3::new(v[0], v[1], v[2]);
                let n = z.length();
                if !(n > 0.0 && n.is_finite()) {
                    return Err(format!("zaxis=\"{text}\": the axis is zero"));
                }
                Ok(DQuat::from_rotation_arc(DVec3::Z, z / n))
            }
        }
    }

    fn geom(
        &mut self,
        node: Node,
        frame: Frame,
        body: usize,
        childclass: &str,
    ) -> Result<(), String> {
        let class = node.attribute("class").unwrap_or(childclass);
        if class != "main" && !self.defaults.geom.contains_key(class) {
            return Err(format!("class=\"{class}\": no such default class"));
        }
        let empty = HashMap::new();
        let defaults = self.defaults.geom.get(class).unwrap_or(&empty);
        // MuJoCo's geom id: every geom counts, collision or not.
        let index = self.geom_count;
        self.geom_count += 1;
        let attr = |name: &str| {
            node.attribute(name)
                .map(str::to_string)
                .or_else(|| defaults.get(name).cloned())
        };
        let name = node
            .attribute("name")
            .map_or_else(|| format!("geom {index}"), str::to_string);
        // A geom naming a mesh is a mesh unless it says otherwise (MuJoCo infers it).
        let kind = attr("type").unwrap_or_else(|| {
            if attr("mesh").is_some() {
                "mesh".into()
            } else {
                "sphere".into()
            }
        });
        if !GEOM_TYPES.contains(&kind.as_str()) {
            return Err(format!(
                "type=\"{kind}\": not a MuJoCo geom type ({})",
                GEOM_TYPES.join(", ")
            ));
        }
        let size = match attr("size") {
            Some(s) => numbers(&s, "size")?,
            None => Vec::new(),
        };
        // Checked on visual geoms too: MuJoCo compiles them, and refuses what we refuse.
        if let Some(s) = size.iter().find(|s| s.abs() > LIMIT) {
            return Err(format!("geom {name}: size {s:e} is beyond ±1e75"));
        }
        let integer = |name: &str, default: u32| -> Result<u32, String> {
            match attr(name) {
                Some(t) => t
                    .trim()
                    .parse::<u32>()
                    .map_err(|_| format!("{name}=\"{t}\": not a non-negative integer")),
                None => Ok(default),
            }
        };
        let filter = (integer("contype", 1)?, integer("conaffinity", 1)?);
        let mut local = self.pose(node, Some(defaults))?;
        if filter == (0, 0) && !self.paired.contains(&name) {
            // A visual geom: MuJoCo never collides it (no pair names it).
            return capped(
                &format!("geom {name}: its position"),
                frame.then(local).translation,
            );
        }
        // A primitive naming a mesh is fitted to it, as MuJoCo's compiler fits it.
        let fitted = match attr("mesh") {
            Some(mesh) if FITTED.contains(&kind.as_str()) => {
                if attr("fromto").is_some() {
                    return Err("fromto cannot be used with a geom fitted to a mesh".into());
                }
                let points = self
                    .meshes
                    .get(&mesh)
                    .ok_or_else(|| format!("mesh=\"{mesh}\": no such mesh asset"))?;
                let scale = match attr("fitscale") {
                    Some(t) => numbers(&t, "fitscale")?.first().copied().unwrap_or(1.0),
                    None => 1.0,
                };
                let fit = super::fit::fit(points, &kind, self.compiler.fitaabb, scale)
                    .map_err(|e| format!("mesh=\"{mesh}\": {e}"))?;
                local = local.then(Frame {
                    rotation: fit.rotation,
                    translation: fit.translation,
                });
                Some(fit.size)
            }
            _ => None,
        };
        let size_at = |k: usize| -> Result<f64, String> {
            let value = match fitted {
                Some(f) => Some(f[k]),
                None => size.get(k).copied(),
            };
            value
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| format!("{kind} geom {name}: size needs {} numbers ≥ 0", k + 1))
        };
        // `fromto`: the geom's z axis along the segment, its half length half the segment.
        let mut half_length = None;
        if let Some(text) = attr("fromto") {
            let v = numbers(&text, "fromto")?;
            if v.len() != 6 {
                return Err(format!("fromto=\"{text}\": 6 numbers expected"));
            }
            let (from, to) = (DVec3::new(v[0], v[1], v[2]), DVec3::new(v[3], v[4], v[5]));
            let axis = to - from;
            if axis.length() == 0.0 {
                return Err(format!("fromto=\"{text}\": the two ends coincide"));
            }
            local = Frame {
                rotation: DQuat::from_rotation_arc(DVec3::Z, axis.normalize()),
                translation: 0.5 * (from + to),
            };
            half_length = Some(0.5 * axis.length());
        }
        let length = |k: usize| half_length.map_or_else(|| size_at(k), Ok);
        let mut quarter_turn = false;
        // This project's capsules and cylinders stand along y, MuJoCo's along z.
        let (spec, along_z) = match kind.as_str() {
            "sphere" => (
                ShapeSpec::Sphere {
                    radius: size_at(0)?,
                },
                false,
            ),
            "capsule" => (
                ShapeSpec::Capsule {
                    radius: size_at(0)?,
                    half_height: length(1)?,
                },
                true,
            ),
            "cylinder" => (
                ShapeSpec::Cylinder {
                    radius: size_at(0)?,
                    half_height: length(1)?,
                },
                true,
            ),
            "ellipsoid" => (
                ShapeSpec::Ellipsoid {
                    radii: [size_at(0)?, size_at(1)?, length(2)?],
                },
                false,
            ),
            "box" => (
                ShapeSpec::Box {
                    half_extents: [size_at(0)?, size_at(1)?, length(2)?],
                },
                false,
            ),
            "mesh" => {
                let mesh = attr("mesh").ok_or("a mesh geom without a mesh")?;
                let points = self
                    .meshes
                    .get(&mesh)
                    .ok_or_else(|| format!("mesh=\"{mesh}\": no such mesh asset"))?;
                let points = points.iter().map(|p| p.to_array()).collect();
                (ShapeSpec::hull_of(points), false)
            }
            // A half-space is not a body GJK takes: a slab under the plane stands in for
            // it, sized once every geom is known ([`Walk::place_planes`]).
            "plane" => (
                ShapeSpec::Box {
                    half_extents: [1.0; 3],
                },
                false,
            ),
            // MuJoCo's height field: x over [-rx, rx] (columns), y over [-ry, ry] (rows, the
            // first written at +y), heights up z to `elevation_z`. The scene's height field
            // lies over x–z with heights along y, rows along +z: a quarter turn about x
            // ((x, y, z) to (x, -z, y)) lays it on MuJoCo's, its first row at +y. The base
            // below z = 0 is not modelled (the field is its surface).
            "hfield" => {
                let field = attr("hfield").ok_or("an hfield geom without an hfield")?;
                let f = self
                    .hfields
                    .get(&field)
                    .ok_or_else(|| format!("hfield=\"{field}\": no such hfield asset"))?;
                let [rx, ry, ez, _] = f.size;
                local = local.then(Frame {
                    rotation: DQuat::from_rotation_x(std::f64::consts::FRAC_PI_2),
                    translation: DVec3::ZERO,
                });
                quarter_turn = true;
                (
                    ShapeSpec::HeightField {
                        heights: f.rows.clone(),
                        scale: [2.0 * rx, ez, 2.0 * ry],
                        cells: Vec::new(),
                    },
                    false,
                )
            }
            // SDFs: not bounded convex shapes.
            _ => {
                let body = &self.body_names[body];
                self.model.left_out.push(format!(
                    "{name} ({kind} in {body}): not a bounded convex shape"
                ));
                return Ok(());
            }
        };
        let world = frame.then(local);
        capped(&format!("geom {name}: its position"), world.translation)?;
        let mut rotation = DMat3::from_quat(world.rotation);
        if quarter_turn {
            // The frame's rotation times the exact quarter turn (x, y, z) -> (x, -z, y).
            let frame_rotation =
                DMat3::from_quat(frame.then(self.pose(node, Some(defaults))?).rotation);
            rotation = frame_rotation * DMat3::from_cols(DVec3::X, DVec3::Z, -DVec3::Y);
        }
        if along_z {
            // Turn ours onto MuJoCo's: y to z (columns permuted, one negated: exact).
            rotation = DMat3::from_cols(rotation.x_axis, rotation.z_axis, -rotation.y_axis);
        }
        if kind == "plane" {
            self.planes.push((self.geom_body.len(), world));
        }
        // A sphere about the geom's origin (a mesh need not surround it: its farthest point).
        let (centre, radius) = (world.translation, crate::import::spec_reach(&spec));
        if radius.is_nan() || radius > LIMIT {
            return Err(format!("geom {name}: it reaches {radius:e}, beyond ±1e75"));
        }
        self.bounds.push((centre, radius));
        self.geom_names.insert(name.clone(), self.geom_body.len());
        self.geom_body.push(body);
        self.geom_filter.push(filter);
        self.model.geoms.push(GeomInfo {
            name: name.clone(),
            kind,
            body: self.body_names[body].clone(),
        });
        self.model.bodies.push(BodySpec {
            name: Some(name),
            shape: spec,
            translation: world.translation.to_array(),
            rotation: RotationSpec::Matrix(rotation.transpose().to_cols_array_2d()),
            velocity: None,
            spin: None,
        });
        Ok(())
    }

    /// Each plane as a slab whose top face is the plane: under every other geom
    /// (laterally twice the model's reach around its centre's foot on the plane, as deep
    /// as that), so that a distance to it, or a depth into it, is the one to the
    /// half-space. The notes say so. A slab that would pass the scene's cap is refused
    /// naming the geom that reaches that far, not the plane.
    pub(super) fn place_planes(&mut self) -> Result<(), String> {
        let is_plane = {
            let set: std::collections::HashSet<usize> =
                self.planes.iter().map(|(p, _)| *p).collect();
            move |k: &usize| set.contains(k)
        };
        let solids: Vec<usize> = (0..self.bounds.len()).filter(|k| !is_plane(k)).collect();
        let centre = if solids.is_empty() {
            DVec3::ZERO
        } else {
            solids.iter().map(|k| self.bounds[*k].0).sum::<DVec3>() / solids.len() as f64
        };
        let reach = solids
            .iter()
            .map(|k| (self.bounds[*k].0 - centre).length() + self.bounds[*k].1)
            .fold(0.0f64, f64::max);
        // The geom that reaches farthest from the origin: the one whose numbers are huge.
        let far = solids.iter().copied().max_by(|a, b| {
            let out = |k: usize| self.bounds[k].0.length() + self.bounds[k].1;
            out(*a).total_cmp(&out(*b))
        });
        // Twice the reach: a geom sunk into the plane leaves through the top face, never
        // through a side.
        let half = (2.0 * reach).max(1e-6) * 1.01;
        for &(k, frame) in &self.planes {
            let normal = frame.rotation * DVec3::Z;
            let foot = centre - normal * normal.dot(centre - frame.translation);
            let slab_centre = foot - normal * half;
            if half.is_nan() || half > LIMIT || capped("", slab_centre).is_err() {
                let plane = &self.model.geoms[k].name;
                let (file, line) = &self.geom_places[k];
                let culprit = far.map_or_else(String::new, |f| {
                    let (other, at) = &self.geom_places[f];
                    let place = if other == file {
                        format!("line {at}")
                    } else {
                        format!("{} line {at}", other.display())
                    };
                    format!(
                        ": geom {} ({place}) lies {:e} from the origin",
                        self.model.geoms[f].name,
                        self.bounds[f].0.length()
                    )
                });
                return Err(format!(
                    "{} line {line}: the plane {plane} stands in as a slab under every geom, \
                     which would reach beyond ±1e75{culprit}",
                    file.display()
                ));
            }
            let body = &mut self.model.bodies[k];
            body.shape = ShapeSpec::Box {
                half_extents: [half; 3],
            };
            body.translation = slab_centre.to_array();
            let rotation = DMat3::from_quat(frame.rotation);
            body.rotation = RotationSpec::Matrix(rotation.transpose().to_cols_array_2d());
            self.bounds[k] = (slab_centre, f64::INFINITY);
        }
        if !self.planes.is_empty() {
            self.model.stand_ins.push(format!(
                "each plane is a slab {:.4} wide and deep whose top face is the plane (under \
                 every other geom, so distances and depths are the half-space's)",
                2.0 * half
            ));
        }
        Ok(())
    }

    /// What MuJoCo's collision filter reads: each geom's body, weld body and filter
    /// key, each weld body's parent's, the excluded body pairs and the explicit pairs.
    pub(super) fn filter(
        &self,
        excluded: Vec<(usize, usize)>,
        explicit: Vec<(usize, usize)>,
    ) -> Filter {
        let weld_parent = (0..self.body_names.len())
            .map(|b| self.body_weld[self.body_parent[b]])
            .collect();
        Filter {
            geom_weld: self.geom_body.iter().map(|b| self.body_weld[*b]).collect(),
            geom_body: self.geom_body.clone(),
            geom_key: self.geom_filter.clone(),
            body_weld: self.body_weld.clone(),
            weld_parent,
            excluded: excluded
                .into_iter()
                .map(|(a, b)| (a.min(b), a.max(b)))
                .collect(),
            explicit: explicit
                .into_iter()
                .map(|(a, b)| (a.min(b), a.max(b)))
                .collect(),
        }
    }
}

/// MuJoCo's geom types (its compiler refuses any other).
const GEOM_TYPES: [&str; 9] = [
    "plane",
    "hfield",
    "sphere",
    "capsule",
    "ellipsoid",
    "cylinder",
    "box",
    "mesh",
    "sdf",
];

/// The primitives MuJoCo fits to a mesh they name.
const FITTED: [&str; 5] = ["sphere", "capsule", "cylinder", "ellipsoid", "box"];

/// The bodies among a body's elements, in document order.
fn bodies_of<'a, 'd, 'i>(
    items: &'a [Placed<'d, 'i>],
) -> impl Iterator<Item = (Node<'d, 'i>, Frame, String)> + 'a {
    items
        .iter()
        .filter(|(n, _, _)| n.has_tag_name("body"))
        .map(|(n, f, c)| (*n, *f, c.clone()))
}
