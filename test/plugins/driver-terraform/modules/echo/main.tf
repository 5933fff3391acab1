# Test module: writes the sorted service ids (and an env var from task_env) to files in `dir`.
variable "services" {
  type = map(any)
}

variable "dir" {
  type = string
}

locals {
  ids = join(",", sort(keys(var.services)))
}

resource "terraform_data" "write" {
  input            = local.ids
  triggers_replace = [local.ids]

  provisioner "local-exec" {
    command = "printf '%s' \"$IDS\" > \"$DIR/ids.txt\" && printf '%s' \"$ECHO_TOKEN\" > \"$DIR/env.txt\""
    environment = {
      IDS = local.ids
      DIR = var.dir
    }
  }
}

output "ids" {
  value = local.ids
}
