// A path the contract does not have (no /v1 prefix).
import { createSecmonClient } from 'secmon-api/client';

const secmon = createSecmonClient({ baseUrl: 'http://localhost:3000', apiKey: 'key' });
await secmon.GET('/policies', {}); // error: /policies
