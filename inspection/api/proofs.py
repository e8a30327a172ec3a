"""Officers' endpoints of the Merkle proofs (RFC 9162) and of the offline verifier.

- ``GET /api/inspection/proofs/inclusion/?seq=N[&checkpoint=K]``: the proof that event N
  is in the tree checkpoint K (default: the last) signs;
- ``GET /api/inspection/proofs/consistency/?first=N[&second=M]`` (or ``first_size=S``, the
  tree size of a checkpoint an officer kept): the proof that M extends N;
- ``GET /api/inspection/proofs/checkpoint/?number=N``: checkpoint N as a file (statement and
  CMS signature), to keep;
- ``GET /api/inspection/proofs/verifier/``: ``verifier.py``, the one-file offline verifier.

Each proof carries what ``python verifier.py inclusion|consistency FILE --ca ca.pem`` needs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.http import FileResponse, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.checkpoints import checkpoint_file
from audit.models import Checkpoint
from audit.proofs import consistency_proof, inclusion_proof
from casino_ops.validation import SafeSerializerMixin

from .base import OfficerEndpoint

MAX_NUMBER = 2**62
VERIFIER = Path(__file__).resolve().parent.parent / "verifier.py"


class InclusionQuerySerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    seq = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER)
    checkpoint = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, required=False)


class ConsistencyQuerySerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    first = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, required=False)
    first_size = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, required=False)
    second = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("first" in attrs) == ("first_size" in attrs):
            raise serializers.ValidationError({"first": "give first (a checkpoint's number) or first_size"})
        return attrs


class CheckpointQuerySerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    number = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, required=False)


class _ProofView(OfficerEndpoint, APIView):
    query_serializer: type[serializers.Serializer[Any]]

    def query(self, request: Any) -> dict[str, Any]:
        return self.valid_query(self.query_serializer, request.query_params)

    @staticmethod
    def attached(data: dict[str, Any], request: Any, name: str) -> Any:
        if request.query_params.get("download"):
            response = HttpResponse(
                json.dumps(data, indent=2, ensure_ascii=False) + "\n", content_type="application/json"
            )
            response["Content-Disposition"] = f'attachment; filename="{name}"'
            return response
        return Response(data)


class InclusionProofView(_ProofView):
    """The inclusion proof of one sealed event (RFC 9162 §2.1.3) with its signed checkpoint."""

    query_serializer = InclusionQuerySerializer

    @extend_schema(
        parameters=[InclusionQuerySerializer],
        responses={200: OpenApiTypes.OBJECT, 400: OpenApiResponse(description="refused: see code and field")},
    )
    def get(self, request: Any) -> Any:
        q = self.query(request)
        proof = inclusion_proof(q["seq"], q.get("checkpoint"))
        return self.attached(proof, request, f"inclusion-{q['seq']}.json")


class ConsistencyProofView(_ProofView):
    """The consistency proof between two checkpoints (RFC 9162 §2.1.4): the later extends the earlier."""

    query_serializer = ConsistencyQuerySerializer

    @extend_schema(
        parameters=[ConsistencyQuerySerializer],
        responses={200: OpenApiTypes.OBJECT, 400: OpenApiResponse(description="refused: see code and field")},
    )
    def get(self, request: Any) -> Any:
        q = self.query(request)
        proof = consistency_proof(q.get("first"), q.get("second"), first_size=q.get("first_size"))
        return self.attached(proof, request, f"consistency-{proof['first_size']}-{proof['second_size']}.json")


class CheckpointFileView(_ProofView):
    """A signed checkpoint as a file to keep (default: the last)."""

    query_serializer = CheckpointQuerySerializer

    @extend_schema(
        parameters=[CheckpointQuerySerializer],
        responses={200: OpenApiTypes.OBJECT, 404: OpenApiResponse(description="no such checkpoint")},
    )
    def get(self, request: Any) -> Any:
        from django.http import Http404

        q = self.query(request)
        query = Checkpoint.objects.order_by("-number")
        checkpoint = query.filter(number=q["number"]).first() if "number" in q else query.first()
        if checkpoint is None:
            raise Http404
        return self.attached(
            json.loads(checkpoint_file(checkpoint)), request, f"checkpoint-{checkpoint.number}.json"
        )


class VerifierView(OfficerEndpoint, APIView):
    """The offline verifier: one Python file (needs only the ``cryptography`` package)."""

    @extend_schema(responses={(200, "text/x-python"): OpenApiTypes.BINARY})
    def get(self, request: Any) -> Any:
        return FileResponse(
            VERIFIER.open("rb"), as_attachment=True, filename="verifier.py", content_type="text/x-python"
        )
