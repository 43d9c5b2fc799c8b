// A scenario naming an example listFindings does not have.
import { createSecmonMsw } from 'secmon-msw';

createSecmonMsw().scenario('listFindings', { example: 'archived' }); // error: "archived"
