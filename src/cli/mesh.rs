//! `collidescope mesh FILE` (OBJ, STL or PLY): the mesh's report.

use std::path::Path;

use collidescope::mesh::load_mesh;

pub fn run(path: &Path, json: bool) -> anyhow::Result<()> {
    let mesh = load_mesh(path)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&mesh.report)?);
    } else {
        println!("{}", mesh.report);
    }
    Ok(())
}
