-- Plugins declare their own monthly quotas (Registrar.quota); a workspace may have its own limit for any of
-- them, one row per quota. The one quota the core used to know, the CRM's, moves here with its settings.
CREATE TABLE workspace_quotas (
    workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    quota        text NOT NULL CHECK (quota ~ '^[a-z][a-z0-9_]{0,62}$'),
    monthly      bigint NOT NULL CHECK (monthly >= 0),
    PRIMARY KEY (workspace_id, quota)
);

INSERT INTO workspace_quotas (workspace_id, quota, monthly)
SELECT id, 'crm', crm_quota_monthly FROM workspaces WHERE crm_quota_monthly IS NOT NULL;

ALTER TABLE workspaces DROP COLUMN crm_quota_monthly;
