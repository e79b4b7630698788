//! `collidescope mesh FILE` (OBJ, STL, PLY or COLLADA): the mesh's report, its
//! surface's topology beside its convexity.

use std::path::Path;

use collidescope::mesh::load_mesh_with_topology;

pub fn run(path: &Path, json: bool) -> anyhow::Result<()> {
    let mesh = load_mesh_with_topology(path)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&mesh.report)?);
    } else {
        println!("{}", mesh.report);
    }
    Ok(())
}
