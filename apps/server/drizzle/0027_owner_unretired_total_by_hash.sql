-- The owner's unretired total, which the request view (and so every write's answer) reads: the
-- owner's approved newest versions whose retirement is not approved, summed. Since migration 0021
-- it probed retirements_approved_request_idx once for each approved request of the owner: for an
-- owner with 81 approved requests (bench:load's seed, PostgreSQL 15) 244 of the view's 278 buffer
-- reads, 0.10-0.12 ms a call warm. A retirement's owner is its request's (retirements/service.ts
-- copies it at attach time and nothing changes it), so the total now reads the owner's approved
-- retirements once, from this index with request_id INCLUDEd (which drizzle cannot declare;
-- src/db/schema.ts says so), and leaves their requests out by a hash: 12 buffer reads, 0.03 ms.
-- It holds only approved retirements, so a write adds an entry only when a retirement is approved.
CREATE INDEX "retirements_owner_approved_idx" ON "retirements" USING btree ("retirement_owner_id","organization_id") INCLUDE ("request_id") WHERE "retirements"."status" = 'approved';
