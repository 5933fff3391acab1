# Test module for a run in progress: its apply prints a line now and then, and waits while
# `hold_file` exists, so a test can watch its output arrive before it ends.
variable "services" {
  type = map(any)
}

variable "hold_file" {
  type = string
}

resource "terraform_data" "progress" {
  input            = sort(keys(var.services))
  triggers_replace = sort(keys(var.services))

  provisioner "local-exec" {
    command = "echo 'progress: started'; while [ -e \"$HOLD\" ]; do echo 'progress: still working'; sleep 0.3; done; echo 'progress: done'"
    environment = {
      HOLD = var.hold_file
    }
  }
}

output "instances" {
  value = length(var.services)
}
