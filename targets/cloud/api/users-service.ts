// svc.cloud.v1.CloudService's people: an organisation's owners add people, set their roles and
// invite them; anyone with a role there lists them. Accepting an invitation needs no sign-in (the
// token is the credential), so it is limited like a sign-in: a wrong token counts as a failure.
import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, SvcError } from "../../../core/index.js";
import type { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { MIN_PASSWORD_LENGTH } from "../commands/init.js";
import { requireRole } from "../auth/access.js";
import { principalName } from "../auth/principal.js";
import { callerOf, peerAddressKey } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { acceptInvitation, createInvitation } from "../storage/invitations-store.js";
import { addUser, listMembers, setRole, type Member } from "../storage/people-store.js";
import { hashPassword } from "../storage/secrets.js";
import { requireId } from "./app-names.js";
import { checkEmail, checkPassword, roleFromWire, roleToWire } from "./users-checks.js";

/** What a wrong invitation token counts against in the sign-in limiter: the caller's address. */
const invitationEntity = (peer: string) => `invitation from ${peer}`;

function userMessage(member: Member) {
  return { id: member.userId, email: member.email, role: roleToWire(member.role), createdOn: timestampFromMs(member.joinedAt) };
}

export function usersService(cloud: CloudContext): Partial<ServiceImpl<typeof CloudService>> {
  const { db } = cloud.store;
  const organization = (id: string) => requireId("organization_id", id);
  return {
    async addUser(request, context) {
      const organizationId = organization(request.organizationId);
      await requireRole(db, callerOf(context), organizationId, "owner", `organisation ${organizationId}`);
      const email = checkEmail(request.email);
      const role = roleFromWire(request.role);
      const passwordHash = hashPassword(checkPassword(request.password));
      const member = await addUser(db, { organizationId, email, passwordHash, role, now: cloud.clock.now() });
      return { user: userMessage(member) };
    },

    async setRole(request, context) {
      const organizationId = organization(request.organizationId);
      await requireRole(db, callerOf(context), organizationId, "owner", `organisation ${organizationId}`);
      const member = await setRole(db, { organizationId, userId: requireId("user_id", request.userId), role: roleFromWire(request.role) });
      return { user: userMessage(member) };
    },

    async listUsers(request, context) {
      const organizationId = organization(request.organizationId);
      await requireRole(db, callerOf(context), organizationId, "viewer", `organisation ${organizationId}`);
      return { users: (await listMembers(db, organizationId)).map(userMessage) };
    },

    async createInvitation(request, context) {
      const principal = callerOf(context);
      const organizationId = organization(request.organizationId);
      await requireRole(db, principal, organizationId, "owner", `organisation ${organizationId}`);
      const email = checkEmail(request.email);
      const role = roleFromWire(request.role);
      const { invitation, token } = await createInvitation(db, { organizationId, email, role, createdBy: principalName(principal), now: cloud.clock.now() });
      return {
        token,
        invitation: {
          id: invitation.id,
          organizationId,
          email,
          role: roleToWire(role),
          createdOn: timestampFromMs(invitation.created_at),
          expiresOn: timestampFromMs(invitation.expires_at),
        },
      };
    },

    async acceptInvitation(request, context) {
      const peer = context.values.get(peerAddressKey);
      await cloud.limiter.check(invitationEntity(peer), peer);
      let accepted;
      try {
        accepted = await acceptInvitation(db, { token: request.token, password: request.password, hashPassword, minPasswordLength: MIN_PASSWORD_LENGTH, now: cloud.clock.now() });
      } catch (thrown) {
        if (thrown instanceof SvcError && thrown.code === Code.Unauthenticated) await cloud.limiter.failed(invitationEntity(peer), peer);
        throw thrown;
      }
      return { organizationId: accepted.organizationId, user: userMessage(accepted) };
    },
  };
}
