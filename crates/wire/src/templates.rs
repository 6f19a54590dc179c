//! Templates: search (N8) and the caller's library (N9).

use serde::{Deserialize, Serialize};

/// A template of N8 and N9. The fields without `Option` are the ones the specification
/// marks required; the optional ones are left out when unknown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Template {
    /// Used to delete the template (seed op 3).
    pub id: i64,
    /// Content hash; every edit changes it (32 lower-case hex characters here).
    pub hash_id: String,
    pub creator_id: i64,
    /// Instances created from the template.
    pub count_created: i64,
    pub name: String,
    /// The Docker image.
    pub image: String,
    /// The image tag; default `latest`.
    pub tag: String,
    /// Visible only to its creator.
    pub private: bool,
    /// Unix seconds.
    pub created_at: f64,
    /// When an instance was last created from it, Unix seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recent_create_date: Option<f64>,
    /// Docker flags, e.g. `-e K=V -p 8000:8000`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub onstart: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desc: Option<String>,
    /// `ssh`, `jupyter` or `args`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtype: Option<String>,
    /// GB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recommended_disk_space: Option<f64>,
    /// N9 only: the library entry (equal to `id` on the reference server; do not assume so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_template_id: Option<i64>,
}

/// N8's answer. The public service may instead answer
/// `{"success": false, "msg": "No templates found"}`: read that as an empty result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TemplateSearch {
    pub success: bool,
    /// The number of templates returned.
    #[serde(default)]
    pub templates_found: i64,
    #[serde(default)]
    pub templates: Vec<Template>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub msg: Option<String>,
}

/// N9's answer: the caller's active templates, most recently updated first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TemplateLibrary {
    pub success: bool,
    #[serde(default)]
    pub templates: Vec<Template>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_shapes_round_trip() {
        let found: TemplateSearch = serde_json::from_str(
            r#"{"success":true,"templates_found":1,"templates":[{"id":5,"hash_id":"ab","creator_id":1,
            "count_created":3,"name":"n","image":"pytorch/pytorch","tag":"latest","private":false,
            "created_at":1.5,"recent_create_date":null,"extra":1}]}"#,
        )
        .unwrap();
        assert_eq!(found.templates[0].image, "pytorch/pytorch");
        assert_eq!(found.templates[0].recent_create_date, None);
        let none: TemplateSearch =
            serde_json::from_str(r#"{"success":false,"msg":"No templates found"}"#).unwrap();
        assert!(none.templates.is_empty());
        let back = serde_json::to_value(&found).unwrap();
        assert!(back["templates"][0].get("user_template_id").is_none());
        let library: TemplateLibrary =
            serde_json::from_str(r#"{"success":true,"templates":[]}"#).unwrap();
        assert!(library.success);
    }
}
