/** The HTTP methods routes are declared with (uWS names DELETE's handler `del`). */
export type Method = 'get' | 'post' | 'patch' | 'delete' | 'put';
