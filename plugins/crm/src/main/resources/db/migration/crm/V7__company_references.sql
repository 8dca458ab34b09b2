-- Not compatible: the previous version stores any company_id it is sent, which these constraints refuse. Stop
-- every node before upgrading (docs/operations.md, "Several nodes on one database").
--
-- company_id on contacts and deals now names a company of the same workspace, checked by the database as
-- contact_id on deals is: race-free, and a company of another workspace can never be named.
--
-- Rows written before companies existed may hold ids that name nothing (the field was the client's own
-- reference, kept unchecked). They are kept exactly as they are: the constraints are NOT VALID, so existing rows
-- are not checked, while every insert, and every update that changes company_id, is. A change to another field
-- of such a row does not touch its company_id and is not refused. docs/crm.md ("Companies") tells operators how to
-- list those rows and validate the constraints once they are resolved.
--
-- Deleting a company keeps its contacts and deals and clears their company_id, as deleting a contact does for
-- its deals' contact_id.

-- Clearing a deleted company's references reads its contacts through this index (deals have deals_company, V1).
CREATE INDEX contacts_company ON contacts (workspace_id, company_id) WHERE company_id IS NOT NULL;

ALTER TABLE contacts ADD CONSTRAINT contacts_company FOREIGN KEY (workspace_id, company_id)
    REFERENCES companies (workspace_id, id) ON DELETE SET NULL (company_id) NOT VALID;

ALTER TABLE deals ADD CONSTRAINT deals_company FOREIGN KEY (workspace_id, company_id)
    REFERENCES companies (workspace_id, id) ON DELETE SET NULL (company_id) NOT VALID;
