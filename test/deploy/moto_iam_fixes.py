"""Patches that make moto 5's IAM enforcement faithful enough for the least-privilege test (imported by
moto_launcher.py with --iam-fixes; test-only, in the launcher's process only). Each one was found by
running a correct policy and seeing it refused:

1. IAM wildcards: moto turned only `*` into a regex and compiled the rest, so the `-??????` suffix CDK
   puts on secret ARNs raised `re.error: multiple repeat`. Now `*` and `?` are IAM wildcards and
   everything else is literal.
2. Resources: moto authorises most services' calls against resource `*`, so a policy scoped to an ARN
   was always denied. Secrets Manager, SES v2, EventBridge and SSM calls are now authorised against
   the ARN of the secret, sending identity, event bus or parameter they name.
3. Signatures: moto signed the decoded path and query, so requests with encoded keys or prefixes
   (`dt%3D…`) failed with SignatureDoesNotMatch. The signature is now also accepted when it matches
   the encoded form the SDK signs.
4. DeleteObjects was authorised as `s3:DeleteObject` on the bucket; it is now authorised on each key.

Still not evaluated (kept as template assertions): conditions other than StringEquals on values moto
knows (e.g. `s3:prefix`, `kms:ViaService`), resource-based policies, and KMS.
"""

import json
import re
from typing import Any
from urllib.parse import quote, unquote

from moto.iam.access_control import IAMPolicyStatement, IAMRequestBase


# 1. IAM wildcards
def _match(pattern: str, string: str) -> Any:
    regex = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.match(f"^{regex}$", string, flags=re.DOTALL)


IAMPolicyStatement._match = staticmethod(_match)


# 2. Resources named by the request
def _arn(self: Any, service: str, resource: str) -> str:
    return f"arn:aws:{service}:{self.region}:{self.current_account}:{resource}"


def _body(self: Any) -> dict[str, Any]:
    try:
        return json.loads(self.body or "{}")
    except ValueError:
        return {}


def _secret_resource(self: Any) -> str:
    secret_id = _body(self).get("SecretId")
    if not secret_id:
        return "*"
    if secret_id.startswith("arn:"):
        return secret_id
    try:
        return self.backend.describe_secret(secret_id).arn
    except Exception:  # an unknown secret: authorise against the name as AWS would
        return _arn(self, "secretsmanager", f"secret:{secret_id}")


def _ses_resource(self: Any) -> str:
    sender = _body(self).get("FromEmailAddress") or ""
    address = re.search(r"<([^>]+)>", sender)
    return _arn(self, "ses", f"identity/{(address.group(1) if address else sender).strip()}")


def _events_resource(self: Any) -> str:
    entries = _body(self).get("Entries") or [{}]
    bus = entries[0].get("EventBusName") or "default"
    return bus if bus.startswith("arn:") else _arn(self, "events", f"event-bus/{bus}")


def _ssm_resource(self: Any) -> str:
    body = _body(self)
    names = body.get("Names") or [body.get("Name") or body.get("Path") or ""]
    return _arn(self, "ssm", f"parameter/{names[0].lstrip('/')}")


def _install_resources() -> None:
    from moto.events.responses import EventsHandler
    from moto.secretsmanager.responses import SecretsManagerResponse
    from moto.sesv2.responses import SESV2Response
    from moto.ssm.responses import SimpleSystemManagerResponse

    SecretsManagerResponse._determine_resource = _secret_resource
    SESV2Response._determine_resource = _ses_resource
    EventsHandler._determine_resource = _events_resource
    SimpleSystemManagerResponse._determine_resource = _ssm_resource


_install_resources()


# 3. Signatures over the encoded path and query
_original_check_signature = IAMRequestBase.check_signature


def _encoded(path: str) -> str:
    base, _, query = path.partition("?")
    encoded = quote(unquote(base), safe="/~")
    if not query:
        return encoded
    pairs = [p.partition("=") for p in query.split("&")]
    return encoded + "?" + "&".join(f"{quote(unquote(k), safe='~')}{s}{quote(unquote(v), safe='~')}" for k, s, v in pairs)


def _check_signature(self: Any) -> None:
    try:
        _original_check_signature(self)
    except Exception:
        decoded = self._path
        self._path = _encoded(decoded)
        try:
            _original_check_signature(self)
        finally:
            self._path = decoded


IAMRequestBase.check_signature = _check_signature


# 4. DeleteObjects on each key
def _install_delete_objects() -> None:
    import xmltodict
    from moto.s3.responses import S3Response

    original = S3Response._bucket_response_post

    def post(self: Any, request: Any, bucket_name: str) -> Any:
        self.path = self._get_path(request)
        if request.headers.get("Content-Length") and self.is_delete_keys():
            objects = xmltodict.parse(self.body)["Delete"].get("Object", [])
            for obj in objects if isinstance(objects, list) else [objects]:
                self.data["Action"] = "DeleteObject"
                self._authenticate_and_authorize_s3_action(bucket_name=bucket_name, key_name=obj["Key"])
            return self._bucket_response_delete_keys(bucket_name)
        return original(self, request, bucket_name)

    S3Response._bucket_response_post = post


_install_delete_objects()
