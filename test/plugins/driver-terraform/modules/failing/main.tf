# Test module whose apply always fails.
variable "services" {
  type = any
}

resource "terraform_data" "fail" {
  input = length(var.services)

  provisioner "local-exec" {
    command = "echo 'boom: the module failed on purpose' >&2; exit 3"
  }
}

# Accepted (and ignored) so the e2e configs can pass the same variables to every module.
variable "output_file" {
  type    = string
  default = ""
}
