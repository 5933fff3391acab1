# Test module that applies cleanly with no service instance and fails once one is there (so the
# daemon starts, and a registration gives a failed run with Terraform's error).
variable "services" {
  type = map(any)
}

resource "terraform_data" "fail" {
  count = length(var.services) > 0 ? 1 : 0
  input = length(var.services)

  provisioner "local-exec" {
    command = "echo 'boom: the module failed on purpose' >&2; exit 3"
  }
}
