import type { AppContext } from '../context/app-context.js';
import { apiRoute, deviceRoute, publicRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { getDevice, listDevices } from './device-view.js';
import { updateDevice } from './update-device.js';
import { revokeDevice } from './revoke-device.js';
import { pairDevice } from './pairing.js';
import { recordHeartbeat } from './heartbeat.js';
import { DeviceListSchema, DeviceSchema, HeartbeatBody, HeartbeatReplySchema, PairBody, PairReplySchema, UpdateDeviceBody } from './schemas.js';

/** /v1/devices for API clients, and the phone's own pair and heartbeat calls under /device/v1. */
export function deviceRoutes(ctx: AppContext): AnyRoute[] {
  return [...apiDeviceRoutes(ctx), ...phoneRoutes(ctx)];
}

function apiDeviceRoutes(ctx: AppContext): AnyRoute[] {
  const found = <T>(device: T | undefined): T => {
    if (!device) throw errors.notFound('device');
    return device;
  };
  return [
    apiRoute({
      method: 'get',
      path: '/v1/devices',
      auth: { scope: 'devices:read' },
      summary: "List the organization's phones, revoked ones included",
      responses: { 200: DeviceListSchema },
      handler: async (req) => ({ status: 200, body: { devices: await listDevices(ctx, req.principal.orgId) } }),
    }),
    apiRoute({
      method: 'get',
      path: '/v1/devices/:deviceId',
      auth: { scope: 'devices:read' },
      summary: 'A phone with its health, SIM cards and queue depth',
      responses: { 200: DeviceSchema },
      handler: async (req) => ({ status: 200, body: found(await getDevice(ctx, req.principal.orgId, req.params.deviceId!)) }),
    }),
    apiRoute({
      method: 'patch',
      path: '/v1/devices/:deviceId',
      auth: { scope: 'devices:write' },
      body: UpdateDeviceBody,
      audit: { action: 'device.updated', target: (req) => req.params.deviceId! },
      summary: 'Rename a phone, drain it, switch its sending off or set its default SIM',
      responses: { 200: DeviceSchema },
      handler: async (req) => ({ status: 200, body: await updateDevice(ctx, req.principal.orgId, req.params.deviceId!, req.body) }),
    }),
    apiRoute({
      method: 'delete',
      path: '/v1/devices/:deviceId',
      auth: { scope: 'devices:write' },
      audit: { action: 'device.revoked', target: (req) => req.params.deviceId! },
      summary: 'Revoke a phone: its token stops working at once; the record stays',
      responses: { 200: DeviceSchema },
      handler: async (req) => ({ status: 200, body: found(await revokeDevice(ctx, req.principal.orgId, req.params.deviceId!)) }),
    }),
  ];
}

function phoneRoutes(ctx: AppContext): AnyRoute[] {
  return [
    publicRoute({
      method: 'post',
      path: '/device/v1/pair',
      auth: { public: true },
      body: PairBody,
      summary: 'Phone: exchange a one-time pairing code for a device id and token',
      responses: { 200: PairReplySchema },
      clientAddress: true,
      handler: async (req) => ({ status: 200, body: await pairDevice(ctx, req.body, req.clientAddress) }),
    }),
    deviceRoute({
      method: 'post',
      path: '/device/v1/heartbeat',
      auth: { device: true },
      body: HeartbeatBody,
      summary: 'Phone: report battery, network, SIM cards and the default-SMS-app role',
      responses: { 200: HeartbeatReplySchema },
      handler: async (req) => ({ status: 200, body: await recordHeartbeat(ctx, req.principal, req.body) }),
    }),
  ];
}
