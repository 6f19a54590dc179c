//! Templates: search (N8), the caller's library (N9) and soft deletion (seed op 3).

use super::{write_tx, DbError};
use crate::query::{all_match, Scalar, Term};
use gpudeck_wire::Template;
use rusqlite::{params, Connection, OptionalExtension, Row};

/// At most this many templates answer a search.
pub const SEARCH_LIMIT: usize = 1000;

const TEMPLATE_COLUMNS: &str = "id, hash_id, owner_id, count_created, name, image, tag, private,
    created_at, recent_create_date, env, onstart, description, runtype, recommended_disk_space";

fn template(r: &Row<'_>) -> rusqlite::Result<Template> {
    Ok(Template {
        id: r.get(0)?,
        hash_id: r.get(1)?,
        creator_id: r.get(2)?,
        count_created: r.get(3)?,
        name: r.get(4)?,
        image: r.get(5)?,
        tag: r.get(6)?,
        private: r.get(7)?,
        created_at: r.get(8)?,
        recent_create_date: r.get(9)?,
        env: r.get(10)?,
        onstart: r.get(11)?,
        desc: r.get(12)?,
        runtype: r.get(13)?,
        recommended_disk_space: r.get(14)?,
        user_template_id: None,
    })
}

/// A template's value of a searchable field (the fields N8 lets a query name).
fn field(template: &Template, name: &str) -> Scalar {
    match name {
        "id" => Scalar::Number(template.id as f64),
        "creator_id" => Scalar::Number(template.creator_id as f64),
        "count_created" => Scalar::Number(template.count_created as f64),
        "created_at" => Scalar::Number(template.created_at),
        "private" => Scalar::Bool(template.private),
        "name" => Scalar::Text(template.name.clone()),
        "image" => Scalar::Text(template.image.clone()),
        "tag" => Scalar::Text(template.tag.clone()),
        "hash_id" => Scalar::Text(template.hash_id.clone()),
        _ => Scalar::Null,
    }
}

/// Public templates of every user plus all of `caller_id`'s own, not deleted, meeting
/// every term; by id, at most [`SEARCH_LIMIT`].
pub fn search(conn: &Connection, caller_id: i64, terms: &[Term]) -> Result<Vec<Template>, DbError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {TEMPLATE_COLUMNS} FROM templates
         WHERE deleted_at IS NULL AND (private = 0 OR owner_id = ?1) ORDER BY id"
    ))?;
    let mut found = Vec::new();
    for row in statement.query_map([caller_id], template)? {
        let row = row?;
        if all_match(terms, |name| field(&row, name)) {
            found.push(row);
            if found.len() == SEARCH_LIMIT {
                break;
            }
        }
    }
    Ok(found)
}

/// `owner_id`'s templates that are not deleted, most recently updated first, then by id
/// descending; each with its library entry (`user_template_id`, the template's id here).
pub fn library(conn: &Connection, owner_id: i64) -> Result<Vec<Template>, DbError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {TEMPLATE_COLUMNS} FROM templates
         WHERE deleted_at IS NULL AND owner_id = ?1 ORDER BY updated_at DESC, id DESC"
    ))?;
    let rows = statement.query_map([owner_id], |r| {
        let mut found = template(r)?;
        found.user_template_id = Some(found.id);
        Ok(found)
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Why a template was not deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteTemplateRefusal {
    /// No such template, or it is already deleted.
    NotFound { template_id: i64 },
    /// It belongs to another user.
    NotYours { template_id: i64 },
    /// `users` other users still have an active relationship to it.
    InUse { template_id: i64, users: i64 },
}

/// Soft-deletes template `template_id` of `owner_id`, unless other users still have an
/// active relationship to it. One IMMEDIATE transaction: the checks and the update see
/// the same state.
pub fn delete_template(
    conn: &mut Connection,
    owner_id: i64,
    template_id: i64,
    now: f64,
) -> Result<Result<(), DeleteTemplateRefusal>, DbError> {
    let tx = write_tx(conn)?;
    let row: Option<(i64, Option<f64>)> = tx
        .query_row(
            "SELECT owner_id, deleted_at FROM templates WHERE id = ?1",
            [template_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    match row {
        None | Some((_, Some(_))) => {
            return Ok(Err(DeleteTemplateRefusal::NotFound { template_id }))
        }
        Some((owner, None)) if owner != owner_id => {
            return Ok(Err(DeleteTemplateRefusal::NotYours { template_id }))
        }
        Some(_) => {}
    }
    let users: i64 = tx.query_row(
        "SELECT COUNT(DISTINCT user_id) FROM template_usage
         WHERE template_id = ?1 AND active = 1 AND user_id != ?2",
        params![template_id, owner_id],
        |r| r.get(0),
    )?;
    if users > 0 {
        return Ok(Err(DeleteTemplateRefusal::InUse { template_id, users }));
    }
    tx.execute(
        "UPDATE templates SET deleted_at = ?1 WHERE id = ?2",
        params![now, template_id],
    )?;
    tx.commit()?;
    Ok(Ok(()))
}
