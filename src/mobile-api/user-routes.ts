import { errors } from '../errors/errors.js';
import { mobileRoute, type AnyMobileRoute } from './mobile-route.js';

/**
 * The app's account calls. Hafatra has no login and password per phone (a phone pairs with a
 * one-time code and holds only its device token), so both answer 501, the reference server's
 * answer when login codes are off; the message says what to do instead.
 */
const notHere = errors.notImplemented;

export function userRoutes(): AnyMobileRoute[] {
  return [
    mobileRoute({
      method: 'get',
      path: '/user/code',
      auth: 'none',
      handler: async () => {
        throw notHere('Hafatra has no login codes: pair another phone with a new pairing code from the dashboard or `hafatra device pair`');
      },
    }),
    mobileRoute({
      method: 'patch',
      path: '/user/password',
      auth: 'device',
      handler: async () => {
        throw notHere('Hafatra phones have no password: the phone holds its own device token; revoke it and pair again to replace it');
      },
    }),
  ];
}
