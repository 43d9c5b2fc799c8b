// The names the docs' code samples use and the tests look for: the environment variables a
// reader copies as they are, the package, and the labels Redoc shows.
export const API_KEY_VARIABLE = 'SECMON_API_KEY';
export const WEBHOOK_SECRET_VARIABLE = 'SECMON_WEBHOOK_SECRET';
export const CLIENT_PACKAGE = 'secmon-api';
export const CURL_LABEL = 'curl';
export const CLIENT_LABEL = CLIENT_PACKAGE;
export const RECEIVER_HEADING = '**Receiving it** with `secmon-api` and Express (verify the raw body, then parse):';
