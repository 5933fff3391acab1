# Test module accepting everything the golden root modules pass, echoing it as outputs.
variable "services" {
  type = any
}

variable "catalog_services" {
  type    = any
  default = null
}

variable "consul_kv" {
  type    = any
  default = null
}

variable "a_string" {
  type    = any
  default = null
}

variable "replicas" {
  type    = any
  default = null
}

variable "ratio" {
  type    = any
  default = null
}

variable "enabled" {
  type    = any
  default = null
}

variable "list" {
  type    = any
  default = null
}

variable "tags" {
  type    = any
  default = null
}

variable "empty" {
  type    = any
  default = null
}

output "echo" {
  value = {
    services         = var.services
    catalog_services = var.catalog_services
    consul_kv        = var.consul_kv
    a_string         = var.a_string
    tags             = var.tags
  }
}
