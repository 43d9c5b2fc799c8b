// A scenario asking getPolicy for a status it does not document.
import { createSecmonMsw } from 'secmon-msw';

createSecmonMsw().scenario('getPolicy', { code: 409 }); // error: 409
