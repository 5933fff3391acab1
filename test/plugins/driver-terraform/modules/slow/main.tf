# Test module: an apply that takes `apply_sleep` seconds in a local-exec provisioner (a stand-in for a
# slow real apply), and then as long as `hold_file` exists; it appends a line to `marker_file` when the
# provisioner starts, then writes one line per service instance to `output_file` (as the demo module).
variable "services" {
  type = map(any)
}

variable "output_file" {
  type = string
}

variable "apply_sleep" {
  type    = number
  default = 0
}

variable "hold_file" {
  type    = string
  default = ""
}

variable "marker_file" {
  type    = string
  default = "/dev/null"
}

locals {
  content = join("", [for key in sort(keys(var.services)) : "${var.services[key].name} ${var.services[key].address}:${var.services[key].port}\n"])
}

resource "terraform_data" "slow" {
  input            = local.content
  triggers_replace = [local.content, var.apply_sleep]

  provisioner "local-exec" {
    command = "echo started >> \"$MARKER\"; sleep \"$SLEEP\"; while [ -n \"$HOLD\" ] && [ -e \"$HOLD\" ]; do sleep 0.2; done; printf '%s' \"$CONTENT\" > \"$OUTPUT_FILE\""
    environment = {
      MARKER      = var.marker_file
      SLEEP       = var.apply_sleep
      HOLD        = var.hold_file
      CONTENT     = local.content
      OUTPUT_FILE = var.output_file
    }
  }
}
