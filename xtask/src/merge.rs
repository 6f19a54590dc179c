//! A page's pack as one wasm module: the chunks wasm-split cut for the page, merged by
//! binaryen's `wasm-merge` (then optimised like every module, in `split.rs`). A phone
//! instantiates a hundred small modules several times slower than one module of the same
//! code (docs/performance.md), and `wasm-opt` finds more to share across the chunks once
//! they are one module.
//!
//! Every chunk imports the main module's memory, function table and shared global from
//! `__wasm_split`, and exports nothing: it only fills its slots of the table. Merged as
//! they are, each chunk would keep its own import of the one memory, so the merge gets a
//! first module, the provider, named `__wasm_split`, that imports those once (from
//! [`PACK_IMPORTS`]) and exports them to the chunks.

use crate::shell::exec_quiet;
use anyhow::{bail, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The import module of the merged pack; `packs.js` gives it (as `pack`) the main
/// module's memory, table and global.
const PACK_IMPORTS: &str = "pack";
/// The import module through which wasm-split's chunks reach the main module.
const SPLIT_IMPORTS: &str = "__wasm_split";

/// binaryen's flags for the wasm features the console was compiled with, read from the
/// `target_features` section of `module` (wasm-split's main module, which keeps it).
pub fn binaryen_features(module: &[u8]) -> Result<Vec<String>> {
    for payload in wasmparser::Parser::new(0).parse_all(module) {
        let wasmparser::Payload::CustomSection(section) = payload? else {
            continue;
        };
        if section.name() != "target_features" {
            continue;
        }
        let mut reader = wasmparser::BinaryReader::new(section.data(), 0);
        let mut flags = vec!["--mvp-features".to_owned()];
        for _ in 0..reader.read_var_u32()? {
            let prefix = reader.read_u8()?;
            let feature = reader.read_string()?;
            if prefix != b'+' {
                continue;
            }
            // binaryen names this one differently from LLVM.
            let feature = match feature {
                "nontrapping-fptoint" => "nontrapping-float-to-int",
                other => other,
            };
            flags.push(format!("--enable-{feature}"));
        }
        return Ok(flags);
    }
    bail!("the module has no target_features section to take binaryen's features from")
}

/// The provider module: each import the chunks make from `__wasm_split`, imported once
/// from [`PACK_IMPORTS`] and exported under its own name. Fails when two chunks import
/// one name with different types, or a chunk imports anything but a memory, table or
/// global (the chunks of wasm-split 0.2.4 do not).
pub fn provider(chunks: &[&[u8]]) -> Result<Vec<u8>> {
    let mut imports: Vec<(String, wasmparser::TypeRef)> = Vec::new();
    for chunk in chunks {
        for payload in wasmparser::Parser::new(0).parse_all(chunk) {
            let wasmparser::Payload::ImportSection(section) = payload? else {
                continue;
            };
            for import in section.into_imports() {
                let import = import?;
                if import.module != SPLIT_IMPORTS {
                    bail!("a chunk imports from {:?}", import.module);
                }
                match imports.iter().find(|(name, _)| name == import.name) {
                    Some((_, ty)) if *ty != import.ty => {
                        bail!("chunks import {:?} with different types", import.name)
                    }
                    Some(_) => {}
                    None => imports.push((import.name.to_owned(), import.ty)),
                }
            }
        }
    }
    imports.sort_by(|a, b| a.0.cmp(&b.0));
    let mut import_section = wasm_encoder::ImportSection::new();
    let mut export_section = wasm_encoder::ExportSection::new();
    let (mut memories, mut tables, mut globals) = (0, 0, 0);
    for (name, ty) in &imports {
        let entity = wasm_encoder::EntityType::try_from(*ty)
            .map_err(|error| anyhow::anyhow!("cannot re-encode the import {name:?}: {error}"))?;
        import_section.import(PACK_IMPORTS, name, entity);
        // Each kind of import is numbered apart, in the order imported.
        let (kind, count) = match ty {
            wasmparser::TypeRef::Memory(_) => (wasm_encoder::ExportKind::Memory, &mut memories),
            wasmparser::TypeRef::Table(_) => (wasm_encoder::ExportKind::Table, &mut tables),
            wasmparser::TypeRef::Global(_) => (wasm_encoder::ExportKind::Global, &mut globals),
            _ => bail!("a chunk imports {name:?}, which is not a memory, table or global"),
        };
        export_section.export(name, kind, *count);
        *count += 1;
    }
    let mut module = wasm_encoder::Module::new();
    module.section(&import_section);
    module.section(&export_section);
    Ok(module.finish())
}

/// `chunks` (name and bytes, in the order wasm-split loads them) merged into one module
/// that imports the main module's memory, table and global from [`PACK_IMPORTS`], written
/// to a file in `scratch` (an empty folder for the tools' files), whose path it returns.
/// `features` are binaryen's flags for the wasm features the chunks use.
pub fn merge(
    chunks: &[(&str, &[u8])],
    features: &[String],
    binaryen: &Path,
    scratch: &Path,
) -> Result<PathBuf> {
    let provider_file = scratch.join("provider.wasm");
    let bytes: Vec<&[u8]> = chunks.iter().map(|(_, bytes)| *bytes).collect();
    std::fs::write(&provider_file, provider(&bytes)?)?;
    let mut merge = Command::new(binaryen.join("wasm-merge"));
    merge.args(features).arg(&provider_file).arg(SPLIT_IMPORTS);
    for (index, (_, bytes)) in chunks.iter().enumerate() {
        let file = scratch.join(format!("chunk{index}.wasm"));
        std::fs::write(&file, bytes)?;
        // Each input needs a name of its own; nothing imports from the chunks.
        merge.arg(&file).arg(format!("chunk{index}"));
    }
    let merged = scratch.join("merged.wasm");
    exec_quiet(merge.arg("-o").arg(&merged))?;
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chunk as wasm-split writes one: imports from `__wasm_split`, nothing else.
    fn chunk(imports: &[(&str, wasm_encoder::EntityType)]) -> Vec<u8> {
        let mut section = wasm_encoder::ImportSection::new();
        for (name, ty) in imports {
            section.import(SPLIT_IMPORTS, name, *ty);
        }
        let mut module = wasm_encoder::Module::new();
        module.section(&section);
        module.finish()
    }

    fn memory(minimum: u64) -> wasm_encoder::EntityType {
        wasm_encoder::EntityType::Memory(wasm_encoder::MemoryType {
            minimum,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        })
    }

    fn table() -> wasm_encoder::EntityType {
        wasm_encoder::EntityType::Table(wasm_encoder::TableType {
            element_type: wasm_encoder::RefType::FUNCREF,
            table64: false,
            minimum: 6680,
            maximum: None,
            shared: false,
        })
    }

    fn imports_and_exports(module: &[u8]) -> (Vec<(String, String)>, Vec<String>) {
        let (mut imports, mut exports) = (Vec::new(), Vec::new());
        for payload in wasmparser::Parser::new(0).parse_all(module) {
            match payload.unwrap() {
                wasmparser::Payload::ImportSection(section) => {
                    for import in section.into_imports() {
                        let import = import.unwrap();
                        imports.push((import.module.to_owned(), import.name.to_owned()));
                    }
                }
                wasmparser::Payload::ExportSection(section) => {
                    for export in section {
                        exports.push(export.unwrap().name.to_owned());
                    }
                }
                _ => {}
            }
        }
        (imports, exports)
    }

    #[test]
    fn the_provider_imports_once_what_the_chunks_import_and_exports_it_to_them() {
        let a = chunk(&[
            ("memory", memory(19)),
            ("__indirect_function_table", table()),
        ]);
        let b = chunk(&[("memory", memory(19))]);
        let provider = provider(&[&a, &b]).unwrap();
        wasmparser::Validator::new()
            .validate_all(&provider)
            .unwrap();
        let (imports, exports) = imports_and_exports(&provider);
        assert_eq!(
            imports,
            [
                ("pack".to_owned(), "__indirect_function_table".to_owned()),
                ("pack".to_owned(), "memory".to_owned()),
            ]
        );
        assert_eq!(exports, ["__indirect_function_table", "memory"]);
    }

    #[test]
    fn chunks_that_disagree_on_an_import_are_refused() {
        let a = chunk(&[("memory", memory(19))]);
        let b = chunk(&[("memory", memory(20))]);
        let refused = provider(&[&a, &b]).unwrap_err().to_string();
        assert!(refused.contains("different types"), "{refused}");
    }

    #[test]
    fn binaryen_gets_the_features_the_console_was_compiled_with() {
        // A target_features section: two features used, one disallowed.
        let mut data = vec![3];
        for (prefix, name) in [
            (b'+', "bulk-memory"),
            (b'+', "nontrapping-fptoint"),
            (b'-', "atomics"),
        ] {
            data.push(prefix);
            data.push(name.len() as u8);
            data.extend_from_slice(name.as_bytes());
        }
        let mut module = wasm_encoder::Module::new();
        module.section(&wasm_encoder::CustomSection {
            name: "target_features".into(),
            data: data.into(),
        });
        assert_eq!(
            binaryen_features(&module.finish()).unwrap(),
            [
                "--mvp-features",
                "--enable-bulk-memory",
                "--enable-nontrapping-float-to-int"
            ]
        );
        let bare = wasm_encoder::Module::new().finish();
        assert!(binaryen_features(&bare).is_err());
    }
}
