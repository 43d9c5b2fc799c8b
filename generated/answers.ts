// Generated from openapi.json by scripts/pipeline.ts (npm run generate); do not edit.
export const OPERATIONS = {
  "listPolicies": {
    "method": "get",
    "path": "/v1/policies",
    "responses": {
      "200": [
        "firstPage",
        "lastPage"
      ],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  },
  "createPolicy": {
    "method": "post",
    "path": "/v1/policies",
    "responses": {
      "201": [
        "created"
      ],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "409": [
        "idempotencyKeyReused"
      ],
      "413": [
        "tooLarge"
      ],
      "415": [
        "wrongContentType"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  },
  "getPolicy": {
    "method": "get",
    "path": "/v1/policies/{id}",
    "responses": {
      "200": [
        "nonCompliant",
        "compliant"
      ],
      "304": [],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "404": [
        "notFound"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  },
  "updatePolicy": {
    "method": "put",
    "path": "/v1/policies/{id}",
    "responses": {
      "200": [
        "updated"
      ],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "404": [
        "notFound"
      ],
      "412": [
        "etagMismatch"
      ],
      "413": [
        "tooLarge"
      ],
      "415": [
        "wrongContentType"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  },
  "deletePolicy": {
    "method": "delete",
    "path": "/v1/policies/{id}",
    "responses": {
      "204": [],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "404": [
        "notFound"
      ],
      "409": [
        "policyInUse"
      ],
      "412": [
        "etagMismatch"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  },
  "listFindings": {
    "method": "get",
    "path": "/v1/findings",
    "responses": {
      "200": [
        "firstPage",
        "empty"
      ],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  },
  "createFinding": {
    "method": "post",
    "path": "/v1/findings",
    "responses": {
      "201": [
        "created"
      ],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "409": [
        "idempotencyKeyReused"
      ],
      "413": [
        "tooLarge"
      ],
      "415": [
        "wrongContentType"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  },
  "getFinding": {
    "method": "get",
    "path": "/v1/findings/{id}",
    "responses": {
      "200": [
        "open",
        "resolved"
      ],
      "304": [],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "404": [
        "notFound"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  },
  "updateFinding": {
    "method": "put",
    "path": "/v1/findings/{id}",
    "responses": {
      "200": [
        "resolved"
      ],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "404": [
        "notFound"
      ],
      "409": [
        "invalidTransition"
      ],
      "412": [
        "etagMismatch"
      ],
      "413": [
        "tooLarge"
      ],
      "415": [
        "wrongContentType"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  },
  "deleteFinding": {
    "method": "delete",
    "path": "/v1/findings/{id}",
    "responses": {
      "204": [],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "404": [
        "notFound"
      ],
      "412": [
        "etagMismatch"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  },
  "listWebhooks": {
    "method": "get",
    "path": "/v1/webhooks",
    "responses": {
      "200": [
        "page"
      ],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  },
  "createWebhook": {
    "method": "post",
    "path": "/v1/webhooks",
    "responses": {
      "201": [
        "created"
      ],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "409": [
        "idempotencyKeyReused"
      ],
      "413": [
        "tooLarge"
      ],
      "415": [
        "wrongContentType"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  },
  "getWebhook": {
    "method": "get",
    "path": "/v1/webhooks/{id}",
    "responses": {
      "200": [
        "healthy",
        "gone"
      ],
      "304": [],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "404": [
        "notFound"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  },
  "updateWebhook": {
    "method": "put",
    "path": "/v1/webhooks/{id}",
    "responses": {
      "200": [
        "updated"
      ],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "404": [
        "notFound"
      ],
      "412": [
        "etagMismatch"
      ],
      "413": [
        "tooLarge"
      ],
      "415": [
        "wrongContentType"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  },
  "deleteWebhook": {
    "method": "delete",
    "path": "/v1/webhooks/{id}",
    "responses": {
      "204": [],
      "400": [
        "validationError",
        "malformedJson",
        "invalidCursor"
      ],
      "401": [
        "missingKey"
      ],
      "403": [
        "missingScope"
      ],
      "404": [
        "notFound"
      ],
      "412": [
        "etagMismatch"
      ],
      "429": [
        "rateLimited",
        "failedAuthentication"
      ],
      "500": [
        "internal"
      ],
      "503": [
        "serviceUnavailable",
        "storageFull"
      ]
    }
  }
} as const;
