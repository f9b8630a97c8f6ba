#FLUX: -n2
#FLUX: -t2d
echo
#FLUX: -c1
