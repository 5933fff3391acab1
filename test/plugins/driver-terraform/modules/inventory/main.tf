# Test module: writes the third-party inputs it receives (`inventory`, `labels`) as JSON to `dir`.
variable "services" {
  type = map(any)
}

variable "inventory" {
  type = list(object({
    name = string
    port = number
  }))
}

variable "labels" {
  type = map(string)
}

variable "dir" {
  type = string
}

locals {
  content = jsonencode({ inventory = var.inventory, labels = var.labels })
}

resource "terraform_data" "write" {
  input            = local.content
  triggers_replace = [local.content]

  provisioner "local-exec" {
    command = "printf '%s' \"$CONTENT\" > \"$DIR/inputs.json\""
    environment = {
      CONTENT = local.content
      DIR     = var.dir
    }
  }
}
