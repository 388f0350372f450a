"""Test-only launcher of moto_server for the deploy smoke test (test/deploy/deploy.test.ts).

moto 5 has no CloudFormation model for several resource types the stack uses: it skips them with a
log line, and a later Fn::GetAtt on one fails the stack. This module registers those models, each
backed by moto's own service backend (Scheduler, Glue, CloudWatch, S3, SQS, SNS, Athena) so that the
deployed resources can be read back through the ordinary APIs, then starts the server:

    python3 test/deploy/moto_launcher.py PORT [--iam-fixes]

`--iam-fixes` also applies the patches of moto_iam_fixes.py (needed once IAM is enforced for the
least-privilege test). Only for tests: it changes moto in this process only.
"""

import json
import sys
from typing import Any

# Importing the parsing module first makes moto import every model it knows.
from moto.cloudformation import parsing
from moto.core.common_models import CloudFormationModel


def _props(cloudformation_json: dict[str, Any]) -> dict[str, Any]:
    return cloudformation_json.get("Properties", {})


def _backend(backends: Any, account_id: str, region_name: str) -> Any:
    return backends[account_id][region_name]


class _Resource:
    """A created resource: its physical id (Ref) and attributes (Fn::GetAtt)."""

    def __init__(self, physical_id: str, attributes: dict[str, str] | None = None):
        self._physical_id = physical_id
        self._attributes = attributes or {}

    @property
    def physical_resource_id(self) -> str:
        return self._physical_id

    @classmethod
    def has_cfn_attr(cls, attr: str) -> bool:
        return True

    def get_cfn_attribute(self, attribute_name: str) -> str:
        return self._attributes[attribute_name]


def _model(resource_type: str, name_property: str = ""):
    """Registers a direct subclass of CloudFormationModel for `resource_type` (moto lists them by
    `CloudFormationModel.__subclasses__()`; its model metaclass wants a `moto.<service>` module)."""

    def register(create):
        class Model(_Resource, CloudFormationModel):
            __module__ = "moto.report_exporter_test"

            @staticmethod
            def cloudformation_type() -> str:
                return resource_type

            @staticmethod
            def cloudformation_name_type() -> str:
                return name_property

            @classmethod
            def create_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
                physical_id, attributes = create(resource_name, _props(cloudformation_json), account_id, region_name)
                return cls(physical_id, attributes)

        Model.__name__ = resource_type.replace("::", "")
        return Model

    return register


@_model("AWS::CDK::Metadata")
def _metadata(name, props, account_id, region_name):
    return name, {}


@_model("AWS::Scheduler::Schedule", "Name")
def _schedule(name, props, account_id, region_name):
    from moto.scheduler.models import scheduler_backends

    schedule = _backend(scheduler_backends, account_id, region_name).create_schedule(
        description=props.get("Description"),
        end_date=props.get("EndDate"),
        flexible_time_window=props.get("FlexibleTimeWindow", {"Mode": "OFF"}),
        group_name=props.get("GroupName"),
        kms_key_arn=props.get("KmsKeyArn"),
        name=name,
        schedule_expression=props["ScheduleExpression"],
        schedule_expression_timezone=props.get("ScheduleExpressionTimezone"),
        start_date=props.get("StartDate"),
        state=props.get("State", "ENABLED"),
        target=props["Target"],
        action_after_completion=None,
    )
    return name, {"Arn": schedule.arn}


@_model("AWS::Glue::Database")
def _glue_database(name, props, account_id, region_name):
    from moto.glue.models import glue_backends

    database_input = props["DatabaseInput"]
    _backend(glue_backends, account_id, region_name).create_database(database_input["Name"], database_input)
    return database_input["Name"], {}


@_model("AWS::Glue::Table")
def _glue_table(name, props, account_id, region_name):
    from moto.glue.models import glue_backends

    table_input = props["TableInput"]
    _backend(glue_backends, account_id, region_name).create_table(props["DatabaseName"], table_input["Name"], table_input)
    return table_input["Name"], {}


@_model("AWS::CloudWatch::Alarm", "AlarmName")
def _alarm(name, props, account_id, region_name):
    from moto.cloudwatch.models import cloudwatch_backends

    if props.get("Metrics"):
        raise NotImplementedError("metric-math alarms are not modelled by this launcher")
    alarm = _backend(cloudwatch_backends, account_id, region_name).put_metric_alarm(
        name=name,
        namespace=props.get("Namespace"),
        metric_name=props.get("MetricName"),
        comparison_operator=props["ComparisonOperator"],
        evaluation_periods=int(props["EvaluationPeriods"]),
        period=int(props["Period"]),
        threshold=float(props["Threshold"]),
        statistic=props.get("Statistic"),
        description=props.get("AlarmDescription"),
        dimensions=props.get("Dimensions", []),
        alarm_actions=props.get("AlarmActions", []),
        ok_actions=props.get("OKActions", []),
        insufficient_data_actions=props.get("InsufficientDataActions", []),
        datapoints_to_alarm=props.get("DatapointsToAlarm"),
        treat_missing_data=props.get("TreatMissingData"),
        actions_enabled=props.get("ActionsEnabled", True),
        unit=props.get("Unit"),
        extended_statistic=props.get("ExtendedStatistic"),
    )
    return name, {"Arn": alarm.alarm_arn}


@_model("AWS::S3::BucketPolicy")
def _bucket_policy(name, props, account_id, region_name):
    from moto.s3.models import s3_backends

    s3_backends[account_id]["aws"].put_bucket_policy(props["Bucket"], json.dumps(props["PolicyDocument"]).encode())
    return f"{props['Bucket']}-policy", {}


@_model("AWS::SQS::QueuePolicy")
def _queue_policy(name, props, account_id, region_name):
    from moto.sqs.models import sqs_backends

    for url in props["Queues"]:
        _backend(sqs_backends, account_id, region_name).set_queue_attributes(
            url.rsplit("/", 1)[-1], {"Policy": json.dumps(props["PolicyDocument"])}
        )
    return name, {}


@_model("AWS::SNS::TopicPolicy")
def _topic_policy(name, props, account_id, region_name):
    from moto.sns.models import sns_backends

    for arn in props["Topics"]:
        _backend(sns_backends, account_id, region_name).set_topic_attribute(
            arn, "policy", json.dumps(props["PolicyDocument"])
        )
    return name, {}


@_model("AWS::Athena::WorkGroup", "Name")
def _workgroup(name, props, account_id, region_name):
    from moto.athena.models import athena_backends

    _backend(athena_backends, account_id, region_name).create_work_group(
        name=name,
        configuration=props.get("WorkGroupConfiguration", {}),
        description=props.get("Description", ""),
        tags=props.get("Tags", []),
    )
    return name, {}


def _ignore_tls_conditions_in_bucket_policies() -> None:
    """moto evaluates no `Bool` condition, so a TLS-only `Deny` (`aws:SecureTransport: false`, on every
    CDK bucket, the bootstrap bucket included) would deny every request to the emulator, which only
    speaks plain HTTP. Such statements are left out when moto evaluates a bucket policy; the stored
    policy (what GetBucketPolicy returns) is unchanged, and the template test asserts the statement."""
    from moto.iam.access_control import IAMPolicy, PermissionResult
    from moto.s3.models import FakeBucket

    def get_permission(self: Any, action: str, resource: str) -> Any:
        if self.policy is None:
            return PermissionResult.NEUTRAL
        document = json.loads(self.policy.decode())
        document["Statement"] = [
            s for s in document.get("Statement", []) if "aws:SecureTransport" not in json.dumps(s.get("Condition", {}))
        ]
        return IAMPolicy(json.dumps(document)).is_action_permitted(action, resource)

    FakeBucket.get_permission = get_permission


def main(argv: list[str]) -> None:
    port = argv[0]
    _ignore_tls_conditions_in_bucket_policies()
    if "--iam-fixes" in argv:
        import moto_iam_fixes  # noqa: F401 (beside this file; patches on import)
    # The model registry is cached on first use: make sure ours are in it.
    parsing.get_model_list.cache_clear()
    parsing.get_model_map.cache_clear()
    parsing.get_name_type_map.cache_clear()
    from moto.server import main as server_main

    server_main(["-H", "127.0.0.1", "-p", port])


if __name__ == "__main__":
    main(sys.argv[1:])
