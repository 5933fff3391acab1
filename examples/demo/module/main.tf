# The cts-runtime demo module. It needs no provider download: it uses only Terraform's built-in
# terraform_data resource, a local-exec provisioner and outputs, so it runs offline.
#
# Every time the task runs, it writes one line per healthy service instance to `output_file`.

terraform {
  required_version = ">= 1.4.0"
}

# The input every module run by cts-runtime (or CTS) receives: one entry per service instance.
variable "services" {
  description = "Consul service instances, keyed by id.node.datacenter"
  type = map(object({
    id      = string
    name    = string
    address = string
    port    = number
    status  = string
    node    = string
    tags    = list(string)
  }))
}

variable "output_file" {
  description = "Where to write the service list; relative paths are relative to the task's working directory"
  type        = string
  default     = "services.txt"
}

locals {
  lines = sort([
    for key, s in var.services : format("%-8s %-21s %-8s node=%s tags=%s", s.name, "${s.address}:${s.port}", s.status, s.node, join(",", s.tags))
  ])
  content = "${join("\n", local.lines)}\n"
}

resource "terraform_data" "service_list" {
  input            = local.content
  triggers_replace = [local.content, var.output_file]

  provisioner "local-exec" {
    # With `cts-runtime dev -vault`, DEMO_API_KEY comes from Vault through the task's environment;
    # only its fingerprint is written, so the secret itself never lands on disk.
    command = "printf '%s' \"$CONTENT\" > \"$OUTPUT_FILE\"; if [ -n \"$DEMO_API_KEY\" ]; then printf '%s' \"$DEMO_API_KEY\" | sha256sum | cut -d' ' -f1 > \"$OUTPUT_FILE.vault\"; fi"
    environment = {
      CONTENT     = local.content
      OUTPUT_FILE = var.output_file
    }
  }
}

output "service_count" {
  value = length(var.services)
}

output "service_ids" {
  value = sort(keys(var.services))
}
