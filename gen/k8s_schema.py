"""Generates src/serve/schema_table.rs: the field table of every Kubernetes type `rvlab serve`
takes or describes (Pod, ConfigMap, their lists, DeleteOptions, Status and everything they
contain), from which src/serve/schema.rs decodes protobuf bodies into JSON and writes the
OpenAPI v2/v3 definitions. One table, so the two can never disagree.

Sources, both generated from upstream's Go types:
- k8s-pb (the crate whose messages kubectl's protobuf bodies are): messages, field tags, wire
  types, field order (= Go struct order = JSON order) and the Go doc comments (descriptions);
- the official Python client's models (`kubernetes` in .tools/pyvenv): the exact JSON names
  (`hostIPC`, `podIPs`), which fields are required (no `omitempty`: written even when zero), and
  which protobuf messages Go embeds inline (`Volume.volumeSource`, `Probe.handler`).
- POINTER below: the optional scalars that are Go pointers (`*bool`, `*int64`, `*string`: present
  means set, so a zero value is written), from `k8s.io/api/core/v1/types.go` and
  `k8s.io/apimachinery/pkg/apis/meta/v1/types.go`. Every other optional scalar is a Go value
  with `omitempty`: gogo-protobuf always encodes it, and JSON omits it when zero.

Run: .tools/pyvenv/bin/python gen/k8s_schema.py > src/serve/schema_table.rs && cargo fmt
"""

import glob
import os
import re
import sys

import kubernetes.client.models as pymodels

PB = glob.glob(os.path.expanduser("~/.cargo/registry/src/*/k8s-pb-0.9.0/src"))[0]

# (rust module path under k8s_pb, OpenAPI definition prefix, Python class prefix)
PACKAGES = {
    "api::core::v1": ("api/core/v1/mod.rs", "io.k8s.api.core.v1", "V1"),
    "apimachinery::pkg::apis::meta::v1": ("apimachinery/pkg/apis/meta/v1/mod.rs", "io.k8s.apimachinery.pkg.apis.meta.v1", "V1"),
    "apimachinery::pkg::api::resource": ("apimachinery/pkg/api/resource/mod.rs", "io.k8s.apimachinery.pkg.api.resource", None),
    "apimachinery::pkg::util::intstr": ("apimachinery/pkg/util/intstr/mod.rs", "io.k8s.apimachinery.pkg.util.intstr", None),
    "apimachinery::pkg::runtime": ("apimachinery/pkg/runtime/mod.rs", "io.k8s.apimachinery.pkg.runtime", None),
}

# Messages with their own JSON form (MarshalJSON in Go).
SPECIAL = {
    "apimachinery::pkg::apis::meta::v1::Time": "Time",
    "apimachinery::pkg::apis::meta::v1::MicroTime": "MicroTime",
    "apimachinery::pkg::apis::meta::v1::Duration": "Duration",
    "apimachinery::pkg::apis::meta::v1::FieldsV1": "FieldsV1",
    "apimachinery::pkg::api::resource::Quantity": "Quantity",
    "apimachinery::pkg::util::intstr::IntOrString": "IntOrString",
    "apimachinery::pkg::runtime::RawExtension": "Raw",
}

ROOTS = [
    "api::core::v1::Pod",
    "api::core::v1::PodList",
    "api::core::v1::ConfigMap",
    "api::core::v1::ConfigMapList",
    "apimachinery::pkg::apis::meta::v1::DeleteOptions",
    "apimachinery::pkg::apis::meta::v1::Status",
]

# Go pointer scalars (types.go): "Type.jsonName".
POINTER = set("""
ObjectMeta.deletionGracePeriodSeconds OwnerReference.controller OwnerReference.blockOwnerDeletion
ListMeta.remainingItemCount
DeleteOptions.gracePeriodSeconds DeleteOptions.orphanDependents DeleteOptions.propagationPolicy
DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential
Preconditions.uid Preconditions.resourceVersion
ConfigMap.immutable
PodSpec.terminationGracePeriodSeconds PodSpec.activeDeadlineSeconds PodSpec.automountServiceAccountToken
PodSpec.shareProcessNamespace PodSpec.priority PodSpec.enableServiceLinks PodSpec.preemptionPolicy
PodSpec.runtimeClassName PodSpec.setHostnameAsFQDN PodSpec.hostUsers
Container.restartPolicy EphemeralContainerCommon.restartPolicy
SecurityContext.privileged SecurityContext.runAsUser SecurityContext.runAsGroup SecurityContext.runAsNonRoot
SecurityContext.readOnlyRootFilesystem SecurityContext.allowPrivilegeEscalation SecurityContext.procMount
PodSecurityContext.runAsUser PodSecurityContext.runAsGroup PodSecurityContext.runAsNonRoot
PodSecurityContext.fsGroup PodSecurityContext.fsGroupChangePolicy PodSecurityContext.supplementalGroupsPolicy
PodSecurityContext.seLinuxChangePolicy
WindowsSecurityContextOptions.gmsaCredentialSpecName WindowsSecurityContextOptions.gmsaCredentialSpec
WindowsSecurityContextOptions.runAsUserName WindowsSecurityContextOptions.hostProcess
SeccompProfile.localhostProfile AppArmorProfile.localhostProfile
Probe.terminationGracePeriodSeconds GRPCAction.service
Toleration.tolerationSeconds
VolumeMount.mountPropagation VolumeMount.recursiveReadOnly VolumeMountStatus.recursiveReadOnly
SecretVolumeSource.defaultMode SecretVolumeSource.optional
ConfigMapVolumeSource.defaultMode ConfigMapVolumeSource.optional
KeyToPath.mode DownwardAPIVolumeSource.defaultMode DownwardAPIVolumeFile.mode
ProjectedVolumeSource.defaultMode SecretProjection.optional ConfigMapProjection.optional
ServiceAccountTokenProjection.expirationSeconds
ClusterTrustBundleProjection.name ClusterTrustBundleProjection.signerName ClusterTrustBundleProjection.optional
HostPathVolumeSource.type FCVolumeSource.lun PodSpec.hostnameOverride
CSIVolumeSource.readOnly CSIVolumeSource.fsType
AzureDiskVolumeSource.cachingMode AzureDiskVolumeSource.fsType AzureDiskVolumeSource.readOnly AzureDiskVolumeSource.kind
ISCSIVolumeSource.initiatorName
ConfigMapKeySelector.optional SecretKeySelector.optional FileKeySelector.optional
ConfigMapEnvSource.optional SecretEnvSource.optional
TopologySpreadConstraint.minDomains TopologySpreadConstraint.nodeAffinityPolicy TopologySpreadConstraint.nodeTaintsPolicy
PodDNSConfigOption.value
PodResourceClaim.resourceClaimName PodResourceClaim.resourceClaimTemplateName
PodResourceClaimStatus.resourceClaimName
ContainerStatus.started ContainerStatus.stopSignal
Lifecycle.stopSignal
PersistentVolumeClaimSpec.storageClassName PersistentVolumeClaimSpec.volumeMode
PersistentVolumeClaimSpec.volumeAttributesClassName
TypedLocalObjectReference.apiGroup TypedObjectReference.apiGroup TypedObjectReference.namespace
StatusDetails.retryAfterSeconds
""".split())
# Message fields that are Go values, not pointers (types.go): Go decodes an absent one as the zero
# struct and writes it (`{}`, a zero Time as null, a zero Quantity as "0"); gogo always encodes
# them, so this only matters for other encoders.
VALUE = set("""
Pod.metadata Pod.spec Pod.status PodList.metadata ConfigMap.metadata ConfigMapList.metadata
Status.metadata ObjectMeta.creationTimestamp
Container.resources EphemeralContainerCommon.resources
ContainerStatus.state ContainerStatus.lastState
ContainerStateRunning.startedAt ContainerStateTerminated.startedAt ContainerStateTerminated.finishedAt
PodCondition.lastProbeTime PodCondition.lastTransitionTime
ResourceFieldSelector.divisor HTTPGetAction.port TCPSocketAction.port
WeightedPodAffinityTerm.podAffinityTerm PreferredSchedulingTerm.preference
PersistentVolumeClaimTemplate.metadata PersistentVolumeClaimTemplate.spec PersistentVolumeClaimSpec.resources
""".split())
# StatusDetails.retryAfterSeconds is an int32 with omitempty in Go, not a pointer.
POINTER.discard("StatusDetails.retryAfterSeconds")


def norm(s):
    return s.replace("_", "").replace("r#", "").lower()


def parse_module(rel):
    """Messages of one k8s-pb module: name -> (doc, [field dict])."""
    text = open(os.path.join(PB, rel)).read()
    out = {}
    doc = []
    cur = None
    attr = None
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("///"):
            doc.append(s[3:][1:] if s[3:4] == " " else s[3:])
            continue
        m = re.match(r"pub struct (\w+) \{", s)
        if m and not line.startswith(" "):
            cur = m.group(1)
            out[cur] = ("\n".join(doc), [])
            doc = []
            continue
        if s.startswith("#[prost("):
            attr = s
            continue
        if s.startswith("#[") or s == "":
            continue
        if cur and attr and s.startswith("pub "):
            fm = re.match(r"pub (r#)?(\w+):\s*(.*?),?$", s)
            # The type may continue on the next line(s).
            out[cur][1].append({"rust": fm.group(2), "attr": attr, "ty": fm.group(3), "doc": "\n".join(doc)})
            doc = []
            attr = None
            continue
        if cur and out[cur][1] and not s.startswith("}") and not s.startswith("pub "):
            out[cur][1][-1]["ty"] += " " + s.rstrip(",")
            continue
        if s == "}":
            cur = None
        doc = []
    return out


MODULES = {pkg: parse_module(rel) for pkg, (rel, _, _) in PACKAGES.items()}


def resolve(pkg, ty):
    """A Rust type path as written in module `pkg` → 'pkg::Name'."""
    t = re.sub(r"::core::option::Option<|::prost::alloc::vec::Vec<|>", "", ty).strip()
    if "super::" not in t:
        return pkg + "::" + t.split("::")[-1]
    parts = t.split("::")
    ups = parts.count("super")
    base = pkg.split("::")
    rest = [p for p in parts if p != "super"]
    return "::".join(base[: len(base) - ups] + rest)


def clean_doc(doc):
    """Go comment → OpenAPI description, as kube-openapi does: marker lines (+...) and TODOs
    dropped, text after --- cut, lines joined with spaces, blank lines kept as paragraph breaks."""
    lines = []
    for l in doc.split("\n"):
        if l.strip() == "---":
            break
        if l.startswith("+") or l.strip().startswith("TODO"):
            continue
        lines.append(re.sub(r"<(https?://[^>]+)>", r"\1", l))
    paras, cur = [], []
    for l in lines:
        if l.strip() == "":
            if cur:
                paras.append(" ".join(cur))
                cur = []
        else:
            cur.append(l.strip())
    if cur:
        paras.append(" ".join(cur))
    return "\n\n".join(paras)


# Python classes by normalised Go name (prost renames GRPCAction to GrpcAction).
PY_CLASSES = {}
for _n in dir(pymodels):
    if _n.startswith("V1") and not _n.startswith("V1beta") and not _n.startswith("V1alpha"):
        PY_CLASSES[_n[2:].lower()] = getattr(pymodels, _n)
# JSON names of every Python model field, for fields of messages without a model of their own.
PY_NAMES = {}
for _c in PY_CLASSES.values():
    for _n, _f in getattr(_c, "model_fields", {}).items():
        _j = _f.serialization_alias or _f.alias or _n
        PY_NAMES.setdefault(_j.replace("_", "").lower(), _j)


def markers(doc):
    """The OpenAPI extensions of a field's `+` markers, as kube-openapi writes them."""
    ext = []
    keys = []
    for l in doc.split("\n"):
        m = re.match(r"\+(patchMergeKey|patchStrategy|listType|listMapKey|mapType)=(\S+)", l.strip())
        if not m:
            continue
        k, v = m.groups()
        if k == "listMapKey":
            keys.append(v)
            continue
        name = {"patchMergeKey": "x-kubernetes-patch-merge-key", "patchStrategy": "x-kubernetes-patch-strategy",
                "listType": "x-kubernetes-list-type", "mapType": "x-kubernetes-map-type"}[k]
        ext.append((name, v))
    if keys:
        ext.append(("x-kubernetes-list-map-keys", ",".join(keys)))
    return sorted(ext)


def py_model(pkg, name):
    if PACKAGES[pkg][2] is None:
        return None
    return PY_CLASSES.get(name.lower())


def go_name(pkg, name):
    model = py_model(pkg, name)
    return model.__name__[2:] if model is not None else name


def camel(rust):
    """JSON name of a field the Python models do not know (newer than the client)."""
    j = PY_NAMES.get(norm(rust))
    if j:
        return j
    head, *rest = rust.replace("r#", "").split("_")
    return head + "".join(w[:1].upper() + w[1:] for w in rest)


def py_fields(model):
    """norm(json name) -> (json name, required)."""
    out = {}
    for n, f in model.model_fields.items():
        j = f.serialization_alias or f.alias or n
        out[norm(j)] = (j, f.is_required())
    return out


def embedded(sub, pyf):
    """Whether message `sub`'s fields are all JSON fields of the model: Go's `json:",inline"`."""
    spkg, sname = sub.rsplit("::", 1)
    fields = MODULES[spkg][sname][1]
    return bool(fields) and all(norm(f["rust"]) in pyf or (f["attr"].startswith("#[prost(message") and embedded(resolve(spkg, f["ty"]), pyf)) for f in fields)


messages = {}  # full path -> dict
order = []


def visit(full):
    if full in messages or full in SPECIAL:
        return
    pkg, name = full.rsplit("::", 1)
    doc, fields = MODULES[pkg][name]
    model = py_model(pkg, name)
    pyf = py_fields(model) if model else {}
    messages[full] = None  # cycle guard
    out = []
    for f in fields:
        a = f["attr"]
        tag = int(re.search(r'tag = "(\d+)"', a).group(1))
        kind = a[len("#[prost("):].split(",")[0].strip()
        card = "Rep" if "repeated" in a else "One"
        msg = None
        if kind.startswith("btree_map"):
            card = "Map"
            vkind = re.search(r'btree_map = "string, (\w+)"', a).group(1)
            if vkind == "message":
                inner = [p for p in re.findall(r"[\w:]+", f["ty"]) if not p.endswith("String") and "BTreeMap" not in p][-1]
                msg = resolve(pkg, inner)
                kind = "message"
            else:
                kind = vkind
        elif kind == "message":
            msg = resolve(pkg, f["ty"])
        ty = {"string": "Str", "bool": "Bool", "int32": "I32", "int64": "I64", "double": "F64", "bytes = \"vec\"": "Bytes", "bytes": "Bytes"}.get(kind)
        if kind == "message":
            ty = SPECIAL.get(msg) or ("Msg", msg)
        if ty is None:
            sys.exit(f"unknown prost kind {kind!r} in {full}.{f['rust']}")
        key = norm(f["rust"])
        inline = False
        if key in pyf:
            json, required = pyf[key]
        elif model is not None and isinstance(ty, tuple) and embedded(ty[1], pyf):
            # Not a JSON field of its own: Go embeds it inline.
            json, required, inline = f["rust"], False, True
        else:
            # A message without a Python model (EphemeralContainerCommon), or a field newer
            # than the client.
            json, required = camel(f["rust"]), False
        flags = []
        if required:
            flags.append("REQ")
        if f"{go_name(pkg, name)}.{json}" in POINTER:
            flags.append("PTR")
        if inline:
            flags.append("INLINE")
        if f"{go_name(pkg, name)}.{json}" in VALUE:
            flags.append("VAL")
        out.append({"tag": tag, "json": json, "ty": ty, "card": card, "flags": flags, "doc": clean_doc(f["doc"]), "ext": markers(f["doc"])})
        if isinstance(ty, tuple):
            visit(ty[1])
    messages[full] = {"name": go_name(pkg, name), "pkg": pkg, "doc": clean_doc(doc), "fields": out}
    order.append(full)


for r in ROOTS:
    visit(r)

# Every POINTER entry names a field that exists (a typo would silently drop a zero).
known = {f"{m['name']}.{f['json']}" for m in messages.values() for f in m["fields"]}
missing = sorted((POINTER | VALUE) - known)
if missing:
    print(f"// note: pointer fields not reachable here: {' '.join(missing)}", file=sys.stderr)


def ident(full):
    pkg, name = full.rsplit("::", 1)
    prefix = "META_" if "meta" in pkg else ""
    return prefix + re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper()


def rs(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def ty_rs(ty):
    if isinstance(ty, tuple):
        return f"Ty::Msg(&{ident(ty[1])})"
    return f"Ty::{ty}"


print("// @generated by gen/k8s_schema.py from k8s-pb 0.9.0 and the `kubernetes` 37.0.2 Python")
print("// client's models. Do not edit: change the generator and run it again.")
print("//! The field table of every served Kubernetes type (see [`super::schema`]).")
print("use super::schema_types::{Card, Field, Msg, Ty, INLINE, PTR, REQ, VAL};")
print()
print("/// Every message of the table, in the order the generator met them.")
print("pub static ALL: &[&Msg] = &[" + ", ".join("&" + ident(f) for f in order) + "];")
for full in order:
    m = messages[full]
    defn = PACKAGES[m["pkg"]][1] + "." + m["name"]
    print(f"pub static {ident(full)}: Msg = Msg {{ name: {rs(m['name'])}, definition: {rs(defn)}, doc: {rs(m['doc'])}, fields: &[")
    for f in m["fields"]:
        flags = " | ".join(f["flags"]) or "0"
        ext = ", ".join(f"({rs(k)}, {rs(v)})" for k, v in f["ext"])
        print(f"    Field {{ tag: {f['tag']}, json: {rs(f['json'])}, ty: {ty_rs(f['ty'])}, card: Card::{f['card']}, flags: {flags}, doc: {rs(f['doc'])}, ext: &[{ext}] }},")
    print("]};")
