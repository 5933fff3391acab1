# Test module: writes one line per Consul node it receives in `nodes` to `output_file`:
# name, address, datacenter, the tagged wan address and the metadata as k=v pairs.
variable "services" {
  type = map(any)
}

variable "nodes" {
  type = list(object({
    id               = string
    node             = string
    address          = string
    datacenter       = string
    tagged_addresses = map(string)
    meta             = map(string)
  }))
}

variable "output_file" {
  type = string
}

locals {
  lines = [for n in var.nodes : join(" ", [
    n.node, n.address, n.datacenter, lookup(n.tagged_addresses, "wan", "-"),
    join(",", [for k in sort(keys(n.meta)) : "${k}=${n.meta[k]}"]),
  ])]
  content = "${join("\n", local.lines)}\n"
}

resource "terraform_data" "node_list" {
  input            = local.content
  triggers_replace = [local.content]

  provisioner "local-exec" {
    command = "printf '%s' \"$CONTENT\" > \"$OUTPUT_FILE\""
    environment = {
      CONTENT     = local.content
      OUTPUT_FILE = var.output_file
    }
  }
}
