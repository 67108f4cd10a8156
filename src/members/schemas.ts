import { Type } from '@sinclair/typebox';
import { Text } from '../schemas/schema-kit.js';

export const RoleSchema = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('viewer')], {
  errorMessage: 'must be owner, admin or viewer',
});

const Email = Text({ minLength: 3, maxLength: 254 });
const Password = Text({ minLength: 1, maxLength: 1024 });
const Token = Text({ minLength: 1, maxLength: 100 });

export const SignInBody = Type.Object({ email: Email, password: Password }, { additionalProperties: false });
export const SwitchOrganizationBody = Type.Object({ organizationId: Text({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) }, { additionalProperties: false });
export const ChangePasswordBody = Type.Object({ currentPassword: Password, newPassword: Password }, { additionalProperties: false });
export const InspectLinkBody = Type.Object({ token: Token }, { additionalProperties: false });
export const AcceptLinkBody = Type.Object({ token: Token, password: Type.Optional(Password), email: Type.Optional(Email) }, { additionalProperties: false });
export const InviteBody = Type.Object({ email: Email, role: RoleSchema }, { additionalProperties: false });
export const ChangeRoleBody = Type.Object({ role: RoleSchema }, { additionalProperties: false });
