// A request body with a field the contract does not have.
import { createSecmonClient } from 'secmon-api';

const secmon = createSecmonClient({ baseUrl: 'http://localhost:3000', apiKey: 'key' });
await secmon.POST('/v1/policies', { body: { name: 'Disk encryption', severity: 'high', colour: 'red' } }); // error: colour
